import { packageVersion, readCommandLine } from './start-flags';

/** What each production entry point runs, for its `--help`. */
const RUNS = {
  'http-main.js':
    'the HTTP tier: the API, the website and the admin area (Bull Board) on PORT. Run any number behind a\nload balancer; delivery workers (worker-main.js) and the monitor (monitor-main.js) run as processes of\ntheir own.',
  'worker-main.js':
    'a delivery worker. Run any number, on any machines, against one Redis; start or stop them at any time.',
  'monitor-main.js':
    'the monitor: suspensions, interrupted fan-outs, the watchdog, fleet-wide metrics and the history writer.\nOne is enough; run two or more for availability (they never act twice).',
} as const;

export type EntryPoint = keyof typeof RUNS;

export function entryUsage(entry: EntryPoint): string {
  return `Usage: node apps/hookline/dist/${entry} [--help | --version]

Runs ${RUNS[entry]}
Every setting comes from environment variables (REDIS_URL, DATABASE_URL, HOOKLINE_*), none from the command
line: see "Settings" and "Running in production" in the README. Stops cleanly on SIGTERM.

  --help     print this and exit
  --version  print the version of hookline and exit`;
}

/**
 * A production entry point's command line, answered before anything starts: `--help` prints its usage and
 * `--version` the version (exit 0); any other argument is refused with the usage (exit 2), so that a flag
 * meant for `main.js` or mistyped is not ignored by a process that then runs without it.
 */
export function answerCommandLine(entry: EntryPoint, args: readonly string[] = process.argv.slice(2)): void {
  const line = readCommandLine(args);
  if (line.kind === 'run') return;
  if (line.kind === 'help') process.stdout.write(`${entryUsage(entry)}\n`);
  if (line.kind === 'version') process.stdout.write(`${packageVersion()}\n`);
  if (line.kind === 'invalid') {
    process.stderr.write(`${line.problem}\n\n${entryUsage(entry)}\n`);
    process.exit(2);
  }
  process.exit(0);
}
