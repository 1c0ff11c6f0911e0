/**
 * Version constants. `VERSION` is the package version carried on every
 * response as `X-Api-Version` (SPEC §9.1); a test keeps it equal to
 * package.json so the two never drift.
 */

/** The server's package version (semver). */
export const VERSION = "1.0.0";

/** The contract label (SPEC §9.1). */
export const API_LABEL = "api v1";

/** The version in which the 0.9.x route set began deprecation (SPEC §9.4). */
export const DEPRECATED_SINCE = "0.9.5";
