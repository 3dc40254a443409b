import { settingDoc, settingsSchema } from './settings';

export interface SettingReference {
  readonly name: string;
  /** As the README shows it: the default in backticks, `empty`, or what happens when it is unset. */
  readonly default: string;
  readonly doc: string;
}

/** Every setting, in schema order, with its default as parsing an unset variable gives it. */
export function settingsReference(): SettingReference[] {
  return Object.entries(settingsSchema.shape).map(([name, schema]) => {
    const doc = settingDoc(schema);
    if (!doc) throw new Error(`setting ${name} has no documentation: define it with setting(schema, doc)`);
    const unset = schema.safeParse(undefined);
    const value = unset.success ? unset.data : undefined;
    const shown =
      doc.whenUnset ?? (Array.isArray(value) && value.length === 0 ? 'empty' : `\`${String(value)}\``);
    return { name, default: shown, doc: doc.doc };
  });
}

export const SETTINGS_TABLE_START = '<!-- settings table: rendered from packages/config/src/settings.ts -->';
export const SETTINGS_TABLE_END = '<!-- end of settings table -->';

/** The README's settings table, Markdown. */
export function renderSettingsTable(): string {
  const rows = settingsReference().map((s) => `| \`${s.name}\` | ${s.default} | ${s.doc} |`);
  return [
    SETTINGS_TABLE_START,
    '| Setting | Default | Meaning |',
    '|---|---|---|',
    ...rows,
    SETTINGS_TABLE_END,
  ].join('\n');
}
