/**
 * `POST /connectors/register` (SPEC §4.4: payload not shown; this project's choice `{kind, instance?, config?}`) as a
 * schema that validates and types. The kind's family gate and the vendor config's own fields are the connector
 * service's (`connector_family_disabled`, `connector_config_invalid`).
 */
import { z } from "zod";
import { body, specError } from "../core/schema.ts";
import { knownKinds } from "./kinds.ts";
import type { VendorKind } from "./vendor.ts";

const INSTANCE = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const kinds = knownKinds() as [VendorKind, ...VendorKind[]];
const badInstance = specError("invalid_request", "instance must be 1-64 characters of a-z, 0-9, '-' or '_', starting with a letter or digit", { field: "instance" });

/** `POST /connectors/register`. */
export const RegisterConnectorBody = body({
  kind: z.enum(kinds, { error: specError("connector_kind_unknown", `Unknown connector kind; known: ${kinds.join(", ")}`, { field: "kind" }, 400) })
    .meta({ description: "A built-in kind", example: "github" }),
  // An empty instance means the default one, as an absent one does.
  instance: z.string({ error: badInstance }).refine((v) => v === "" || INSTANCE.test(v), { error: badInstance }).optional()
    .meta({ description: "`^[a-z0-9][a-z0-9_-]{0,63}$`, default `default`", example: "main" }),
  config: z.record(z.string(), z.unknown(), { error: specError("invalid_request", "config must be a JSON object", { field: "config" }) }).optional().meta({
    description: "The vendor config, written to `<config_dir>/connectors/{kind}-{instance}.json` with mode 0600; absent: the existing file is loaded (and refused unless 0600). Secrets are named by path (e.g. `key_file`), never inlined.",
    example: { api_base_url: "https://api.github.com", app_id: "12345", installation_id: "67890", key_file: "/home/op/.config/cairn/github-app.pem", repos: ["acme/widgets"] },
  }),
}, { error: specError("invalid_request", "The body must be a JSON object"), nulls: ["kind", "instance"], meta: { id: "RegisterConnector", "x-cairn-choice": "body {kind, instance?, config?}; the registry row starts in state registered" } });

/** What `POST /connectors/register` takes. */
export type RegisterConnectorInput = z.input<typeof RegisterConnectorBody>;
