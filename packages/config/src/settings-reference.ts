import { REQUIRED, type Role } from './load-config';
import { settingDoc, settingsSchema } from './settings';

export interface SettingReference {
  readonly name: string;
  /** As the README shows it: the default in backticks, `empty`, or what happens when it is unset. */
  readonly default: string;
  /** The processes that refuse to start without it (loadConfig's REQUIRED), in Role order. */
  readonly requiredBy: readonly Role[];
  readonly doc: string;
}

/** Every setting, in schema order, with its default as parsing an unset variable gives it. */
export function settingsReference(): SettingReference[] {
  return Object.entries(settingsSchema.shape).map(([name, schema]) => {
    const doc = settingDoc(schema);
    if (!doc) throw new Error(`setting ${name} has no documentation: define it with setting(schema, doc)`);
    const unset = schema.safeParse(undefined);
    const value = unset.success ? unset.data : undefined;
    // Without this an optional setting would show "`undefined`" as its default.
    if (value === undefined && doc.whenUnset === undefined)
      throw new Error(`setting ${name} has no default: say what happens when it is unset (whenUnset)`);
    const shown =
      doc.whenUnset ?? (Array.isArray(value) && value.length === 0 ? 'empty' : `\`${String(value)}\``);
    const requiredBy = (Object.keys(REQUIRED) as Role[]).filter((role) =>
      (REQUIRED[role] as readonly string[]).includes(name),
    );
    return { name, default: shown, requiredBy, doc: doc.doc };
  });
}

// Named as the README's "Running in production" table names the processes.
const PROCESS_NAMES: Record<Role, string> = {
  api: 'HTTP tier',
  worker: 'worker',
  monitor: 'monitor',
  'all-in-one': '`pnpm start`',
  producer: 'TypeScript producer',
};

export const SETTINGS_TABLE_START = '<!-- settings table: rendered from packages/config/src/settings.ts -->';
export const SETTINGS_TABLE_END = '<!-- end of settings table -->';

/** The README's settings table, Markdown, markers included. */
export function renderSettingsTable(): string {
  const rows = settingsReference().map((s) => {
    const requiredBy = s.requiredBy.map((role) => PROCESS_NAMES[role]).join(', ');
    return `| \`${s.name}\` | ${s.default} | ${requiredBy} | ${s.doc} |`;
  });
  return [
    SETTINGS_TABLE_START,
    '| Setting | Default | Required by | Meaning |',
    '|---|---|---|---|',
    ...rows,
    SETTINGS_TABLE_END,
  ].join('\n');
}
