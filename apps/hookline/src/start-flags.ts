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

const KNOWN = new Set(['--demo', '--embedded-redis', '--help', '-h', '--version']);

/** The all-in-one start's command line: `--demo`, `--embedded-redis`, `--help`, `--version`, nothing else. */
export function parseStartFlags(args: readonly string[]): StartFlags {
  // `pnpm start -- --demo` hands the script a bare `--` first.
  const given = args.filter((arg) => arg !== '--');
  // An unknown flag is refused whatever comes with it: a mistyped command line is said to be one.
  const unknown = given.filter((arg) => !KNOWN.has(arg));
  if (unknown.length > 0)
    return {
      kind: 'invalid',
      problem: `Unknown argument${unknown.length > 1 ? 's' : ''}: ${unknown.join(' ')}`,
    };
  if (given.includes('--help') || given.includes('-h')) return { kind: 'help' };
  if (given.includes('--version')) return { kind: 'version' };
  return { kind: 'run', demo: given.includes('--demo'), embeddedRedis: given.includes('--embedded-redis') };
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
