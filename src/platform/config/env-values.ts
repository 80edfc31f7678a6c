// Reading single values from the environment record config.ts hands over: trimmed text, bounded
// integers, true/false flags. A value that does not parse is a ConfigError naming the variable.
export class ConfigError extends Error {}

export type Env = Record<string, string | undefined>;

/** The trimmed value, or null when unset or blank. */
export function text(env: Env, name: string): string | null {
  const raw = env[name];
  return raw === undefined || raw.trim() === '' ? null : raw.trim();
}

/** An integer from min to max; the fallback when unset or empty. */
export function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max} (got "${raw}")`);
  }
  return value;
}

/** true/1 or false/0; the fallback when unset or blank. */
export function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = text(env, name);
  if (raw === null) return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(`${name} must be true or false (got "${raw}")`);
}
