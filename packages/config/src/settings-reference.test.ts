import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  renderSettingsTable,
  settingsReference,
  SETTINGS_TABLE_END,
  SETTINGS_TABLE_START,
} from './settings-reference';

const README = join(__dirname, '../../../README.md');

describe('settings reference', () => {
  it('documents every setting, with the default an unset variable gets', () => {
    const byName = new Map(settingsReference().map((s) => [s.name, s]));
    expect(byName.get('PORT')?.default).toBe('`8080`');
    expect(byName.get('HOOKLINE_ALLOW_NETWORKS')?.default).toBe('empty');
    expect(byName.get('HOOKLINE_DATA_DIR')?.default).toBe('`.data`');
    expect(byName.get('HOOKLINE_API_KEY')?.default).toMatch(/^— \(`pnpm start` generates one/);
    for (const s of byName.values()) expect(s.doc.length).toBeGreaterThan(10);
  });

  it("names the processes that require a setting, from loadConfig's own list", () => {
    const required = settingsReference().filter((s) => s.requiredBy.length > 0);
    expect(required.map((s) => [s.name, s.requiredBy])).toEqual([
      ['DATABASE_URL', ['api', 'monitor']],
      ['HOOKLINE_API_KEY', ['api', 'all-in-one']],
      ['HOOKLINE_SECRET_KEY', ['api', 'worker', 'monitor', 'all-in-one', 'producer']],
    ]);
    expect(renderSettingsTable()).toContain('| `HOOKLINE_SECRET_KEY` | — (`pnpm start` generates one into');
    expect(renderSettingsTable()).toContain(
      '| HTTP tier, worker, monitor, `pnpm start`, TypeScript producer |',
    );
  });

  it("is the README's settings table, word for word", () => {
    const readme = readFileSync(README, 'utf8');
    const start = readme.indexOf(SETTINGS_TABLE_START);
    const end = readme.indexOf(SETTINGS_TABLE_END);
    const table = start >= 0 && end > start ? readme.slice(start, end + SETTINGS_TABLE_END.length) : '';
    const expected = renderSettingsTable();
    if (table !== expected)
      throw new Error(
        `README.md's settings table differs from packages/config/src/settings.ts (and loadConfig's REQUIRED); ` +
          `replace everything from ${SETTINGS_TABLE_START} to ${SETTINGS_TABLE_END} in README.md with:\n\n${expected}\n`,
      );
  });
});
