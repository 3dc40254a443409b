import { readFileSync } from 'node:fs';
import { BUILT_IN_CATALOG, parseEventCatalog, type EventCatalog } from '@hookline/core';
import { loadBrandLogo, type BrandLogo } from './brand';
import { redisHaProblems } from './redis-ha-settings';
import { decodeSecretKey, settingsSchema, type Settings } from './settings';

/** The processes hookline runs. */
export type ProcessRole = 'api' | 'worker' | 'monitor' | 'all-in-one';
// `producer`: a service of the operator's that publishes in-process (createProducer in @hookline/services),
// which tags idempotency keys for erasures with the same key as the fleet.
export type Role = ProcessRole | 'producer';

// Settings a process cannot run without. The all-in-one start generates and persists the secrets itself
// before calling loadConfig, so it requires them too. Exported for the README's settings table.
export const REQUIRED: Readonly<Record<Role, readonly (keyof Settings)[]>> = {
  api: ['HOOKLINE_API_KEY', 'HOOKLINE_SECRET_KEY', 'DATABASE_URL'],
  worker: ['HOOKLINE_SECRET_KEY'],
  // The monitor runs erasures, whose requests the API sealed and whose fence tags are keyed with it: one without
  // the key would leave every erasure running, and the events it matches refused, with nothing but a log line.
  monitor: ['DATABASE_URL', 'HOOKLINE_SECRET_KEY'],
  'all-in-one': ['HOOKLINE_API_KEY', 'HOOKLINE_SECRET_KEY'],
  // Without the fleet's key, erasures (fenced with tags keyed from it) would miss the events it publishes.
  producer: ['HOOKLINE_SECRET_KEY'],
};

export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export type Config = Readonly<Settings> & {
  readonly role: Role;
  readonly redisUrlGiven: boolean;
  /** The event kinds: the built-in ones and those of HOOKLINE_EVENT_CATALOG. */
  readonly eventCatalog: EventCatalog;
  /** HOOKLINE_BRAND_LOGO, read and recognised at start. */
  readonly brandLogo?: BrandLogo;
};

/** How the catalogue file is read; tests pass their own. */
export type ReadFile = (path: string) => string;
const readUtf8: ReadFile = (path) => readFileSync(path, 'utf8');

/**
 * Reads only the env it is given (and the catalogue file it names), reports every problem at once, each
 * catalogue problem under HOOKLINE_EVENT_CATALOG, and returns a frozen config.
 */
export function loadConfig(
  env: Readonly<Record<string, string | undefined>>,
  role: Role,
  readFile: ReadFile = readUtf8,
): Config {
  const blank = Object.keys(settingsSchema.shape).filter((name) => isBlank(env[name]));
  const present = Object.fromEntries(
    Object.entries(env).filter(([name, v]) => v !== undefined && v !== '' && !blank.includes(name)),
  );
  const parsed = settingsSchema.safeParse(present);
  const problems = blank.map(blankProblem);
  if (!parsed.success)
    problems.push(...parsed.error.issues.map((i) => `${settingOf(i.path) || '(env)'}: ${i.message}`));
  for (const key of REQUIRED[role]) {
    if (present[key] === undefined) problems.push(`${key}: is required for the ${role} process`);
  }
  if (
    present.HOOKLINE_OPERATOR_WEBHOOK_URL !== undefined &&
    present.HOOKLINE_OPERATOR_WEBHOOK_SECRET === undefined
  )
    problems.push('HOOKLINE_OPERATOR_WEBHOOK_SECRET: is required with HOOKLINE_OPERATOR_WEBHOOK_URL');
  problems.push(...redisHaProblems(present), ...httpTimeoutProblems(present), ...embeddingProblems(present));
  const catalog = loadEventCatalog(present.HOOKLINE_EVENT_CATALOG, readFile, problems);
  const logo = present.HOOKLINE_BRAND_LOGO ? loadBrandLogo(present.HOOKLINE_BRAND_LOGO, problems) : undefined;
  if (!parsed.success || problems.length > 0 || !catalog) throw new ConfigError(problems);
  return Object.freeze({
    ...parsed.data,
    ...(logo ? { brandLogo: logo } : {}),
    role,
    redisUrlGiven: present.REDIS_URL !== undefined,
    eventCatalog: catalog,
  });
}

/**
 * Whether one setting's own check accepts `value`: for the all-in-one start, which acts on REDIS_URL (asks it,
 * or starts an embedded Redis) before loadConfig, and leaves a refused one to loadConfig's list of problems.
 */
export function settingAccepts(name: keyof Settings, value: string | undefined): boolean {
  return settingsSchema.shape[name].safeParse(value).success;
}

/** One setting as its own parser reads it (its default when unset), or undefined when that parser refuses it. */
function valueOf<K extends keyof Settings>(
  present: Readonly<Record<string, string | undefined>>,
  name: K,
): Settings[K] | undefined {
  const parsed = settingsSchema.shape[name].safeParse(present[name]);
  return parsed.success ? (parsed.data as Settings[K]) : undefined;
}

// Node refuses to create a server whose headers deadline is longer than its whole-request deadline (the headers
// are part of the request): said here, naming both settings, rather than as Node's range error at listen.
function httpTimeoutProblems(present: Readonly<Record<string, string | undefined>>): string[] {
  const headers = valueOf(present, 'HOOKLINE_HTTP_HEADERS_TIMEOUT_MS');
  const request = valueOf(present, 'HOOKLINE_HTTP_REQUEST_TIMEOUT_MS');
  if (headers === undefined || request === undefined || headers <= request) return [];
  const shown = (name: string, value: number) =>
    `${name} (${value}${present[name] === undefined ? ', its default' : ''})`;
  return [
    `${shown('HOOKLINE_HTTP_HEADERS_TIMEOUT_MS', headers)} must not exceed ` +
      `${shown('HOOKLINE_HTTP_REQUEST_TIMEOUT_MS', request)}: the headers are part of the request`,
  ];
}

// A sign-in link's session inside an operator's frame lives in a partitioned cookie, which must be Secure, and
// browsers keep a Secure cookie from plain http only on this machine's names: with any other public address on
// http the link would be spent and the customer, inside the frame, left signed out.
function embeddingProblems(present: Readonly<Record<string, string | undefined>>): string[] {
  const publicUrl = valueOf(present, 'HOOKLINE_PUBLIC_URL');
  const ancestors = valueOf(present, 'HOOKLINE_FRAME_ANCESTORS');
  if (!publicUrl || !ancestors?.length) return [];
  const { protocol, hostname } = new URL(publicUrl);
  if (protocol === 'https:' || isLoopbackName(hostname)) return [];
  return [
    `HOOKLINE_PUBLIC_URL: must be https:// with HOOKLINE_FRAME_ANCESTORS (${publicUrl}: browsers drop the ` +
      'Secure cookie of a session inside a frame on plain http, except on localhost)',
  ];
}

/** Names browsers treat as this machine, where http counts as secure (localhost, 127.0.0.0/8, ::1). */
export function isLoopbackName(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    /^127(\.\d{1,3}){3}$/.test(hostname) ||
    hostname === '[::1]'
  );
}

function loadEventCatalog(
  path: string | undefined,
  readFile: ReadFile,
  problems: string[],
): EventCatalog | undefined {
  if (path === undefined) return BUILT_IN_CATALOG;
  const name = 'HOOKLINE_EVENT_CATALOG';
  let text: string;
  try {
    text = readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    problems.push(`${name}: cannot read ${path}${code ? ` (${code})` : ''}`);
    return undefined;
  }
  const parsed = parseEventCatalog(text);
  if (parsed.ok) return parsed.catalog;
  problems.push(...parsed.problems.map((problem) => `${name} (${path}): ${problem}`));
  return undefined;
}

/** The credentials key as bytes. Processes that store or read hook credentials call this once at start. */
export function secretKeyOf(config: { readonly HOOKLINE_SECRET_KEY?: string | undefined }): Buffer {
  const key = config.HOOKLINE_SECRET_KEY ? decodeSecretKey(config.HOOKLINE_SECRET_KEY) : undefined;
  if (!key)
    throw new ConfigError(['HOOKLINE_SECRET_KEY: is required (32 bytes as 64 hex characters or base64)']);
  return key;
}

/**
 * The suspension rule a worker's outcome script applies with a failure (the monitor applies the same rule): read
 * from one configuration, so a process that runs both cannot give them two.
 */
export function suspensionRuleOf(config: {
  readonly HOOKLINE_SUSPEND_AFTER_FAILURES: number;
  readonly HOOKLINE_SUSPEND_AFTER_MS: number;
}): { threshold: number; windowMs: number } {
  return { threshold: config.HOOKLINE_SUSPEND_AFTER_FAILURES, windowMs: config.HOOKLINE_SUSPEND_AFTER_MS };
}

/**
 * HOOKLINE_DATA_DIR alone, for the all-in-one start, which needs it before the rest: the secrets it generates
 * there are part of the environment the full configuration is then loaded from.
 */
export function loadDataDir(env: Readonly<Record<string, string | undefined>>): string {
  if (isBlank(env.HOOKLINE_DATA_DIR)) throw new ConfigError([blankProblem('HOOKLINE_DATA_DIR')]);
  const parsed = settingsSchema.shape.HOOKLINE_DATA_DIR.safeParse(env.HOOKLINE_DATA_DIR || undefined);
  if (!parsed.success)
    throw new ConfigError([`HOOKLINE_DATA_DIR: ${parsed.error.issues[0]?.message ?? 'invalid'}`]);
  return parsed.data;
}

// A value of spaces alone is a slip (a quoted blank in a compose or .env file), never a name, password or path
// anyone means: refused for every setting with one plain line, rather than used (a directory named " ", a
// password of spaces) or refused by each parser in its own words. The empty string still means unset.
const isBlank = (value: string | undefined): boolean =>
  value !== undefined && value !== '' && value.trim() === '';
const blankProblem = (name: string): string =>
  `${name}: is only whitespace; give it a value, or leave it empty or unset for its default`;

/** The setting a problem is in: a comma-separated list's entry is named by its place, counted from 1. */
function settingOf(path: readonly PropertyKey[]): string {
  const [name, entry, ...rest] = path.map(String);
  if (entry === undefined || !/^\d+$/.test(entry)) return path.map(String).join('.');
  return `${name} (entry ${Number(entry) + 1})${rest.length > 0 ? `.${rest.join('.')}` : ''}`;
}
