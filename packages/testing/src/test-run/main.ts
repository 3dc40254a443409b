import { resolve } from 'node:path';
import { CHROMIUM } from '../chromium-path';
import { BUILT_ENTRIES_ENV } from '../processes';
import { testRun } from './run';
import { DEFAULT_TEST_DATABASE_URL, DEFAULT_TEST_REDIS_URL } from './services';
import type { Command, Step } from './steps';

// `pnpm test` (package.json): node --require tsx/cjs packages/testing/src/test-run/main.ts [jest arguments]
const REPO_ROOT = resolve(__dirname, '../../../..');

// pnpm passes `pnpm test -- a b` on as `-- a b`; everything after is jest's.
const argv = process.argv.slice(2);
const jestArgs = argv[0] === '--' ? argv.slice(1) : argv;

// The pnpm that started this run (npm_execpath), so the checks run with it whatever PATH holds. pnpm 10 is a
// JavaScript file that node runs; the pnpm 12 that `npm install -g pnpm` gives is a native executable, run as
// it is.
const execPath = process.env.npm_execpath;
const pnpm = (script: string): Command =>
  !execPath
    ? { name: script, program: 'pnpm', args: ['run', script] }
    : /\.[cm]?js$/.test(execPath)
      ? { name: script, program: process.execPath, args: [execPath, 'run', script] }
      : { name: script, program: execPath, args: ['run', script] };

const jest = (name: string, args: readonly string[]): Command => ({
  name,
  program: process.execPath,
  args: [require.resolve('jest/bin/jest', { paths: [REPO_ROOT] }), ...args],
});

// The whole suite runs in two steps. First every suite but the fleet's, three at a time on two cores: many of
// them wait out real deadlines, locks and promotions (15 s delivery deadlines, Sentinel failovers), and two at a
// time left a core idle meanwhile (on a 2-core machine, 299 suites took 928 s two at a time, 667 s three at a
// time, 2026-11-29). Then the fleet's suites, which run whole fleets
// of processes (Redis Clusters, Sentinels, workers killed and frozen) and spend most of their time waiting out
// locks, promotions and restarts: one at a time they left half of the two cores idle for ≈ 8 minutes. They run
// two at a time in two lanes: the two failover suites (≈ 6 of those minutes one after the other), each on Redis
// servers of its own, beside the others. Arguments run jest once, as given.
const FLEET_SUITES = '/apps/hookline/test/fleet/';
const FAILOVER_SUITES = '/apps/hookline/test/fleet/(cluster|sentinel)-failover\\.test\\.ts$';
const jestSteps: Step[] =
  jestArgs.length > 0
    ? [jest('jest', jestArgs)]
    : [
        jest('jest', ['--maxWorkers=3', '--testPathIgnorePatterns', '/node_modules/', FLEET_SUITES]),
        {
          name: 'jest (fleet)',
          together: [
            jest('jest (fleet: failovers)', ['--maxWorkers=2', FAILOVER_SUITES]),
            jest('jest (fleet: the others)', [
              '--maxWorkers=2',
              '--testPathIgnorePatterns',
              '/node_modules/',
              FAILOVER_SUITES,
              '--',
              FLEET_SUITES,
            ]),
          ],
        },
      ];

// The three checks side by side, and the build the suites' processes start from (BUILT_ENTRIES_ENV): each is
// mostly one core's work (lint ≈ 60 s, typecheck ≈ 25 s, layers ≈ 7 s on two cores; the build is turbo's cache
// after `pnpm build`, ≈ 2 minutes of CPU without it), so together they end about when lint does.
const checks: Step = {
  name: 'checks',
  together: [pnpm('typecheck'), pnpm('lint'), pnpm('layers'), pnpm('build')],
};
const steps: Step[] = [checks, ...jestSteps];

void testRun({
  steps,
  // The suite's own settings: where a running Redis and PostgreSQL are looked for before any is started.
  wanted: {
    redisUrl: process.env.TEST_REDIS_URL || DEFAULT_TEST_REDIS_URL,
    databaseUrl: process.env.TEST_DATABASE_URL || DEFAULT_TEST_DATABASE_URL,
  },
  PATH: process.env.PATH ?? '',
  postgresRoots: ['/usr/lib/postgresql'],
  chromium: CHROMIUM,
  env: { ...process.env, [BUILT_ENTRIES_ENV]: '1' },
  print: (line) => process.stderr.write(`${line}\n`),
}).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`test run: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
