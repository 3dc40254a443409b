import { join } from 'node:path';

/** Where an embedded redis-server runs: what its refusals are about. */
export interface EmbeddedRedisPlace {
  readonly port: number;
  /** Its AOF directory. */
  readonly dir: string;
}

/** redis-server's log prefix ("12257:M 29 Nov 2026 15:13:42.165 # "): the words after it are what it says. */
const LOG_PREFIX = /^\d+:[A-Z] \d{1,2} \w{3} \d{4} [\d:.]+ ([.*#-]) /;
/** Its warnings (`#`), where it says why it stops, and what it prints before it logs (a bad option). */
const loud = (line: string) => (LOG_PREFIX.exec(line)?.[1] ?? '#') === '#';

/** Its lines that name a cause it cannot get past by being started again, matched to what a person does about it. */
const CAUSES: readonly {
  readonly said: RegExp;
  readonly cause: (place: EmbeddedRedisPlace) => string;
}[] = [
  {
    said: /Address already in use|Failed listening on port/,
    cause: ({ port }) => `port ${port} is taken by another process; free it, then start hookline again`,
  },
  {
    said: /reading the append only file|AOF manifest|can't open the append log file|Short read or OOM loading DB|Wrong signature trying to load DB/,
    cause: ({ dir }) =>
      `its AOF in ${join(dir, 'appendonlydir')} is damaged; keep a copy of that directory, then repair it with ` +
      `redis-check-aof --fix ${join(dir, 'appendonlydir', 'appendonly.aof.manifest')}`,
  },
  {
    said: /Permission denied|Read-only file system|No space left on device|Disk quota exceeded|Operation not permitted|Can't open or create append-only dir|Can't chdir/,
    cause: ({ dir }) => `it cannot write its files in ${dir}; make that a writable directory with space left`,
  },
];

/** What redis-server said, without its log prefix. */
const words = (line: string) => line.replace(LOG_PREFIX, '').trim();

/**
 * Why a redis-server stopped, as a sentence for a person, from the last lines it printed: the port taken, the
 * data directory unwritable or the AOF damaged (with what to do), else its own last warning, quoted.
 */
export function whyRedisServerStopped(lastLines: readonly string[], place: EmbeddedRedisPlace): string {
  const warnings = lastLines.filter(loud).reverse();
  for (const line of warnings) {
    const known = CAUSES.find(({ said }) => said.test(line));
    if (known) return `${known.cause(place)} (redis-server: "${words(line)}")`;
  }
  const said = warnings[0] ?? lastLines.at(-1);
  return said ? `redis-server said "${words(said)}"` : 'redis-server printed nothing';
}

/** The embedded redis-server exited, or did not answer, while starting; the message says why. */
export class EmbeddedRedisDidNotStart extends Error {
  constructor(
    readonly place: EmbeddedRedisPlace,
    readonly why: string,
  ) {
    super(`the embedded redis-server did not start on port ${place.port}: ${why}`);
    this.name = 'EmbeddedRedisDidNotStart';
  }
}
