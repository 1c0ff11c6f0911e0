/**
 * Typed readers for one environment variable. A wrong-typed value refuses
 * boot with a one-line message naming the variable (SPEC §1 Runtime rules).
 */

/** Boot refusal: the message is one line and names the variable. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

type Env = Readonly<Record<string, string | undefined>>;

function present(env: Env, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v.trim() === "" ? undefined : v.trim();
}

/** A string variable, or the default. */
export function readString(env: Env, name: string, dflt: string): string;
export function readString(env: Env, name: string): string | undefined;
export function readString(env: Env, name: string, dflt?: string): string | undefined {
  return present(env, name) ?? dflt;
}

/** A decimal integer within [min, max]; anything else refuses boot. */
export function readInt(env: Env, name: string, dflt: number, min: number, max: number): number {
  const v = present(env, name);
  if (v === undefined) return dflt;
  if (!/^[0-9]+$/.test(v)) throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got '${v}'`);
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got '${v}'`);
  }
  return n;
}

/** A boolean: 1/0, true/false, yes/no, on/off (case-insensitive). */
export function readBool(env: Env, name: string, dflt: boolean): boolean {
  const v = present(env, name);
  if (v === undefined) return dflt;
  const l = v.toLowerCase();
  if (["1", "true", "yes", "on"].includes(l)) return true;
  if (["0", "false", "no", "off"].includes(l)) return false;
  throw new ConfigError(`${name} must be a boolean (1/0, true/false), got '${v}'`);
}

/** One of a fixed set of values (case-sensitive, as documented). */
export function readEnum<T extends string>(env: Env, name: string, values: readonly T[], dflt: T): T {
  const v = present(env, name);
  if (v === undefined) return dflt;
  if (!(values as readonly string[]).includes(v)) {
    throw new ConfigError(`${name} must be one of ${values.join(", ")}, got '${v}'`);
  }
  return v as T;
}
