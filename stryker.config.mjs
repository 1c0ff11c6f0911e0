// Mutation testing of the trust core (issue 27): `npm run mutate` runs every folder; `npm run mutate -- --mutate 'src/audit/**/*.ts'`
// narrows it (the score table per folder is in docs/testing.md). Vitest's own per-test coverage lets Stryker run only the tests
// that reach each mutant.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  plugins: ["@stryker-mutator/vitest-runner"],
  vitest: { configFile: "vitest.mutate.config.ts" },
  dryRunTimeoutMinutes: 30,
  coverageAnalysis: "perTest",
  mutate: [
    "src/hygiene/**/*.ts",
    "src/review/**/*.ts",
    "src/audit/**/*.ts",
    "src/erasure/**/*.ts",
    "src/authz/**/*.ts",
    "src/auth/**/*.ts",
    "src/ump/capability-token.ts",
    "src/ump/sign.ts",
    "src/limits/**/*.ts",
  ],
  ignoreStatic: true,
  concurrency: 2,
  timeoutMS: 60000,
  reporters: ["clear-text", "progress", "json"],
  jsonReporter: { fileName: "reports/mutation/mutation.json" },
  htmlReporter: { fileName: "reports/mutation/mutation.html" },
  tempDirName: ".stryker-tmp",
  incremental: true,
  incrementalFile: "reports/stryker-incremental.json",
  thresholds: { high: 90, low: 80, break: null },
};
