import { accessSync, constants, readdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * Which programs the suite runs, checked before anything starts: a missing one must stop `pnpm test` within
 * seconds with what to install, not surface minutes later as a wall of connection errors.
 */
export interface PreflightInput {
  /** The PATH to search (the runner's own; tests give a smaller one). */
  readonly PATH: string;
  /** Where Debian keeps PostgreSQL's server programs: `<root>/<major version>/bin`. */
  readonly postgresRoots: readonly string[];
  /** The Chromium the browser tests launch (a fixed path: playwright-core is pointed at it). */
  readonly chromium: string;
  /** False when a PostgreSQL already answers: the suite then needs no server programs of its own. */
  readonly needPostgresServer: boolean;
}

export interface FoundPrograms {
  readonly redisServer: string;
  /** The folder holding initdb and postgres; undefined when a running PostgreSQL is used. */
  readonly postgresBin: string | undefined;
}

export interface MissingPart {
  /** What is missing, as a person looks for it ("redis-server", "PostgreSQL's initdb and postgres"). */
  readonly what: string;
  /** Why the suite needs it. */
  readonly why: string;
  /** The Debian package that provides it. */
  readonly debianPackage: string;
}

export type Preflight =
  | { readonly ok: true; readonly found: FoundPrograms }
  | { readonly ok: false; readonly missing: readonly MissingPart[] };

/** PostgreSQL's server programs the throwaway cluster is made and run with. */
export const POSTGRES_PROGRAMS = ['initdb', 'postgres'] as const;

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first `name` on PATH that can be run, like `command -v`. */
export function onPath(name: string, PATH: string): string | undefined {
  for (const dir of PATH.split(delimiter)) {
    if (dir && isExecutable(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

function hasPostgresPrograms(dir: string): boolean {
  return POSTGRES_PROGRAMS.every((program) => isExecutable(join(dir, program)));
}

/**
 * The folder with PostgreSQL's server programs: Debian's newest `<root>/<version>/bin` (Debian keeps them off
 * PATH), else the folder on PATH that has them (Homebrew, other distributions).
 */
export function findPostgresBin(input: Pick<PreflightInput, 'PATH' | 'postgresRoots'>): string | undefined {
  for (const root of input.postgresRoots) {
    let versions: string[];
    try {
      versions = readdirSync(root);
    } catch {
      continue;
    }
    const newestFirst = versions.sort((a, b) => Number(b) - Number(a) || b.localeCompare(a));
    for (const version of newestFirst) {
      if (hasPostgresPrograms(join(root, version, 'bin'))) return join(root, version, 'bin');
    }
  }
  const initdb = onPath('initdb', input.PATH);
  const dir = initdb?.slice(0, -'/initdb'.length);
  return dir !== undefined && hasPostgresPrograms(dir) ? dir : undefined;
}

/** Every missing program at once, so one `apt-get install` fixes the machine. */
export function preflight(input: PreflightInput): Preflight {
  const missing: MissingPart[] = [];
  const redisServer = onPath('redis-server', input.PATH);
  if (!redisServer)
    missing.push({
      what: 'redis-server',
      why: 'the Redis the suite runs against, and the Redis Cluster and restart tests',
      debianPackage: 'redis-server',
    });
  const postgresBin = input.needPostgresServer ? findPostgresBin(input) : undefined;
  if (input.needPostgresServer && !postgresBin)
    missing.push({
      what: `PostgreSQL's ${POSTGRES_PROGRAMS.join(' and ')}`,
      why: 'the throwaway PostgreSQL of the history tests (nothing answers at TEST_DATABASE_URL)',
      debianPackage: 'postgresql',
    });
  if (!isExecutable(input.chromium))
    missing.push({ what: input.chromium, why: 'the browser tests', debianPackage: 'chromium' });
  if (!onPath('promtool', input.PATH))
    missing.push({ what: 'promtool', why: 'the alert rules tests', debianPackage: 'prometheus' });
  if (!onPath('tinyproxy', input.PATH))
    missing.push({ what: 'tinyproxy', why: 'the egress proxy tests', debianPackage: 'tinyproxy' });
  if (missing.length > 0 || !redisServer) return { ok: false, missing };
  return { ok: true, found: { redisServer, postgresBin } };
}

/** One line per missing part, then the one command that installs them all. */
export function describeMissing(missing: readonly MissingPart[]): string {
  const lines = missing.map(
    (part) => `  missing ${part.what} (${part.why}): apt-get install ${part.debianPackage}`,
  );
  const all = missing.map((part) => part.debianPackage).join(' ');
  return [
    'pnpm test cannot start: this machine lacks what the suite runs.',
    ...lines,
    `Install them all (Debian/Ubuntu): sudo apt-get install -y ${all}`,
  ].join('\n');
}
