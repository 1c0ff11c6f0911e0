import { defineConfig } from "vitest/config";

// Tests run against real libSQL files in temp dirs; keep parallelism modest on a 2-core box.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
  },
});
