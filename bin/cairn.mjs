#!/usr/bin/env node
// npm `bin` entry: Node 20 cannot run TypeScript itself, so register tsx and load cli.ts.
import { register } from "tsx/esm/api";
register();
await import("../cli.ts");
