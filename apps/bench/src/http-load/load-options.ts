import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

/** The HTTP-tier load script's command line (see publish-load.ts). */
export interface LoadOptions {
  readonly entries: ReadonlyArray<{ name: string; path: string }>;
  readonly rates: readonly number[];
  readonly seconds: number;
  readonly rounds: number;
  readonly accounts: number;
  readonly connections: number;
  readonly withId: boolean;
  readonly cpuProfDir?: string;
  /** Extra node flags for the children, e.g. --perf-basic-prof for `perf record -p <pid>`. */
  readonly nodeArgs: readonly string[];
  /** The tiers' LOG_LEVEL: the product's default (`info`) unless asked otherwise. */
  readonly logLevel: string;
  /** Where the tiers' log lines go (a file, so they cost what they cost in production, not a terminal). */
  readonly logFile: string;
  readonly redisUrl: string;
  /** The tiers' history database (each tier a schema of its own, dropped when it stops). */
  readonly databaseUrl: string;
}

export function loadOptions(): LoadOptions {
  const { values } = parseArgs({
    options: {
      entry: { type: 'string', multiple: true },
      rates: { type: 'string', default: '500,1000' },
      seconds: { type: 'string', default: '10' },
      rounds: { type: 'string', default: '3' },
      accounts: { type: 'string', default: '20' },
      connections: { type: 'string', default: '8' },
      'no-id': { type: 'boolean', default: false },
      'cpu-prof': { type: 'string' },
      'node-args': { type: 'string', default: '' },
      'log-level': { type: 'string', default: 'info' },
      'log-file': { type: 'string', default: 'artifacts/bench/publish-load.log' },
    },
  });
  const entries = (values.entry ?? ['current=apps/hookline/dist/http-main.js']).map((spec) => {
    const [name, path] = spec.includes('=') ? spec.split('=', 2) : [spec, spec];
    return { name: name!, path: resolve(path!) };
  });
  return {
    entries,
    rates: values.rates.split(',').map(Number),
    seconds: Number(values.seconds),
    rounds: Number(values.rounds),
    accounts: Number(values.accounts),
    connections: Number(values.connections),
    withId: !values['no-id'],
    ...(values['cpu-prof'] ? { cpuProfDir: resolve(values['cpu-prof']) } : {}),
    nodeArgs: values['node-args'].split(' ').filter(Boolean),
    logLevel: values['log-level'],
    logFile: resolve(values['log-file']),
    redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    databaseUrl: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
  };
}
