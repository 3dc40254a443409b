import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const START_USAGE = `Usage: pnpm start [-- [--demo] [--embedded-redis] | --help | --version]

Runs hookline in one process: the API, the website, the admin area (Bull Board), a delivery worker and the
suspension monitor. Settings come from HOOKLINE_* environment variables (see the README); secrets are
generated on first start and kept in $HOOKLINE_DATA_DIR/secrets.json (default ./.data).

  --demo            also start a sample receiver on 127.0.0.1 and a hook of the demo account that delivers to it
  --embedded-redis  start the embedded redis-server (AOF in $HOOKLINE_DATA_DIR/redis) even when a Redis answers
                    at redis://127.0.0.1:6379; not with REDIS_URL, REDIS_CLUSTER_NODES or REDIS_SENTINELS
  --help            print this and exit
  --version         print the version of hookline and exit`;

export type StartFlags =
  | { readonly kind: 'run'; readonly demo: boolean; readonly embeddedRedis: boolean }
  | { readonly kind: 'help' }
  | { readonly kind: 'version' }
  | { readonly kind: 'invalid'; readonly problem: string };

/** What a command line of a hookline entry point asks for, before its own flags are read. */
export type CommandLine =
  | { readonly kind: 'run'; readonly given: readonly string[] }
  | { readonly kind: 'help' }
  | { readonly kind: 'version' }
  | { readonly kind: 'invalid'; readonly problem: string };

/** Every entry point's command line: `--help` (`-h`), `--version` and its own `flags`, nothing else. */
export function readCommandLine(args: readonly string[], flags: readonly string[] = []): CommandLine {
  const known = new Set([...flags, '--help', '-h', '--version']);
  // `pnpm start -- --demo` hands the script a bare `--` first.
  const given = args.filter((arg) => arg !== '--');
  // An unknown flag is refused whatever comes with it: a mistyped command line is said to be one.
  const unknown = given.filter((arg) => !known.has(arg));
  if (unknown.length > 0)
    return {
      kind: 'invalid',
      problem: `Unknown argument${unknown.length > 1 ? 's' : ''}: ${unknown.join(' ')}`,
    };
  if (given.includes('--help') || given.includes('-h')) return { kind: 'help' };
  if (given.includes('--version')) return { kind: 'version' };
  return { kind: 'run', given };
}

/** The all-in-one start's command line: `--demo`, `--embedded-redis`, `--help`, `--version`, nothing else. */
export function parseStartFlags(args: readonly string[]): StartFlags {
  const line = readCommandLine(args, ['--demo', '--embedded-redis']);
  if (line.kind !== 'run') return line;
  return {
    kind: 'run',
    demo: line.given.includes('--demo'),
    embeddedRedis: line.given.includes('--embedded-redis'),
  };
}

/**
 * The version of this package, read from its package.json when asked (src/ and dist/ both sit beside it), so
 * that a release changes it in one place and `--version` cannot go stale.
 */
export function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as {
    version?: unknown;
  };
  if (typeof manifest.version !== 'string') throw new Error('apps/hookline/package.json has no version');
  return manifest.version;
}
