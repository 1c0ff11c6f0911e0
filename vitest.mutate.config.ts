import { defineConfig } from "vitest/config";

// The suite Stryker runs against mutants of the trust core (stryker.config.mjs): the tests of those folders, without the
// ones that spawn whole CLI or server processes (a mutant in a spawned process is invisible to Stryker's coverage).
// CAIRN_MUTATE_TESTS (comma-separated files or globs) narrows the run to a folder's own tests, which a loaded machine needs:
// every mutant reruns the tests that reach it, and the whole set reaches the shared services from every folder.
// `CAIRN_MUTATE_TESTS='test/review/**/*.test.ts' npx stryker run --mutate 'src/review/**/*.ts' --concurrency 1`.
const narrowed = process.env.CAIRN_MUTATE_TESTS?.split(",").map((g) => g.trim()).filter(Boolean);
// CAIRN_MUTATE_ISOLATE=0 turns off vitest's per-file isolation (Stryker switches mutants at run time, so the code need
// not be re-imported); the src/erasure/ runs of 2026-11-26 used it. Its effect on speed was not measured.
const isolate = process.env.CAIRN_MUTATE_ISOLATE !== "0";

export default defineConfig({
  test: {
    include: narrowed?.length ? narrowed : [
      "test/hygiene/**/*.test.ts",
      "test/hygiene-doors/**/*.test.ts",
      "test/review/**/*.test.ts",
      // Review through the doors that register decision and promotion hooks (channel out, UMP ids, parcel labels).
      "test/workflow/channels.test.ts",
      "test/ump/review-posture-id.test.ts",
      "test/parcel/parcels.test.ts",
      "test/audit/**/*.test.ts",
      "test/erasure/erasure.test.ts",
      "test/erasure/snapshot-guard.test.ts",
      "test/erasure/certificate.test.ts",
      "test/erasure/requests.test.ts",
      "test/erasure/guards.test.ts",
      "test/erasure/erase-in-tx.test.ts",
      "test/authz/**/*.test.ts",
      "test/auth/**/*.test.ts",
      "test/ump/capability-token.test.ts",
      "test/ump/capability-token-refusals.test.ts",
      "test/ump/sign.test.ts",
      "test/ump/sign-refusals.test.ts",
      "test/ump/auth-errors.test.ts",
      "test/limits/**/*.test.ts",
    ],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    isolate,
    pool: "forks",
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
  },
});
