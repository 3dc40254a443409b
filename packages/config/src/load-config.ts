import { decodeSecretKey, settingsSchema, type Settings } from './settings';

export type Role = 'api' | 'worker' | 'monitor' | 'all-in-one';

// Settings a process cannot run without. The all-in-one start generates and persists the secrets itself
// before calling loadConfig, so it requires them too. Exported for the README's settings table.
export const REQUIRED: Readonly<Record<Role, readonly (keyof Settings)[]>> = {
  api: ['HOOKLINE_API_KEY', 'HOOKLINE_SECRET_KEY', 'DATABASE_URL'],
  worker: ['HOOKLINE_SECRET_KEY'],
  monitor: ['DATABASE_URL'],
  'all-in-one': ['HOOKLINE_API_KEY', 'HOOKLINE_SECRET_KEY'],
};

export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export type Config = Readonly<Settings> & { readonly role: Role; readonly redisUrlGiven: boolean };

/** Pure: reads only the env it is given, reports every problem at once, returns a frozen config. */
export function loadConfig(env: Readonly<Record<string, string | undefined>>, role: Role): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = settingsSchema.safeParse(present);
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((i) => `${i.path.join('.') || '(env)'}: ${i.message}`);
  for (const key of REQUIRED[role]) {
    if (present[key] === undefined) problems.push(`${key}: is required for the ${role} process`);
  }
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems);
  return Object.freeze({ ...parsed.data, role, redisUrlGiven: present.REDIS_URL !== undefined });
}

/** The credentials key as bytes. Processes that store or read hook credentials call this once at start. */
export function secretKeyOf(config: { readonly HOOKLINE_SECRET_KEY?: string | undefined }): Buffer {
  const key = config.HOOKLINE_SECRET_KEY ? decodeSecretKey(config.HOOKLINE_SECRET_KEY) : undefined;
  if (!key)
    throw new ConfigError(['HOOKLINE_SECRET_KEY: is required (32 bytes as 64 hex characters or base64)']);
  return key;
}

/**
 * HOOKLINE_DATA_DIR alone, for the all-in-one start, which needs it before the rest: the secrets it generates
 * there are part of the environment the full configuration is then loaded from.
 */
export function loadDataDir(env: Readonly<Record<string, string | undefined>>): string {
  const parsed = settingsSchema.shape.HOOKLINE_DATA_DIR.safeParse(env.HOOKLINE_DATA_DIR || undefined);
  if (!parsed.success)
    throw new ConfigError([`HOOKLINE_DATA_DIR: ${parsed.error.issues[0]?.message ?? 'invalid'}`]);
  return parsed.data;
}
