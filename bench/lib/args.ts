// Minimal --flag value / --flag parsing for the bench scripts (no dependency needed for two CLIs).

export type Args = Record<string, string | boolean>;

export function parseArgs(argv: string[] = process.argv.slice(2)): Args {
  const out: Args = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) throw new Error(`Unexpected argument "${arg}"`);
    const eq = arg.indexOf('=');
    const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
    if (eq >= 0) out[name] = arg.slice(eq + 1);
    else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) out[name] = argv[++i];
    else out[name] = true;
  }
  return out;
}

export function num(args: Args, name: string, fallback: number): number {
  const raw = args[name];
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value)) throw new Error(`--${name} must be a number (got "${raw}")`);
  return value;
}

export function str(args: Args, name: string, fallback: string | null = null): string | null {
  const raw = args[name];
  return typeof raw === 'string' ? raw : fallback;
}
