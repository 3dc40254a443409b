import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeMissing, findPostgresBin, preflight, type PreflightInput } from './preflight';
import { onPath } from './preflight';

// A machine laid out in a temporary folder: links to this machine's real programs, minus the ones a test
// takes away. The preflight is given that folder's PATH, PostgreSQL root and Chromium.
describe('the preflight of pnpm test', () => {
  let root = '';
  const real = (name: string) => {
    const found = onPath(name, process.env.PATH ?? '') ?? findPostgresOnMachine(name);
    if (!found) throw new Error(`this test needs ${name} on the machine running it`);
    return found;
  };
  const findPostgresOnMachine = (name: string) => {
    const bin = findPostgresBin({ PATH: process.env.PATH ?? '', postgresRoots: ['/usr/lib/postgresql'] });
    return bin ? join(bin, name) : undefined;
  };
  function machine(without: readonly string[] = []): PreflightInput {
    root = mkdtempSync(join(tmpdir(), 'hookline-preflight-'));
    const bin = join(root, 'bin');
    const pgBin = join(root, 'postgresql', '15', 'bin');
    mkdirSync(bin);
    mkdirSync(pgBin, { recursive: true });
    for (const name of ['redis-server', 'promtool', 'tinyproxy'])
      if (!without.includes(name)) symlinkSync(real(name), join(bin, name));
    for (const name of ['initdb', 'postgres'])
      if (!without.includes(name)) symlinkSync(real(name), join(pgBin, name));
    if (!without.includes('chromium')) symlinkSync(real('chromium'), join(root, 'chromium'));
    return {
      PATH: bin,
      postgresRoots: [join(root, 'postgresql')],
      chromium: join(root, 'chromium'),
      needPostgresServer: true,
    };
  }
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('passes on a machine with everything, and finds Debian-style PostgreSQL programs off PATH', () => {
    const input = machine();
    expect(preflight(input)).toEqual({
      ok: true,
      found: {
        redisServer: join(root, 'bin', 'redis-server'),
        postgresBin: join(root, 'postgresql', '15', 'bin'),
      },
    });
  });

  it.each([
    ['redis-server', 'redis-server', 'apt-get install redis-server'],
    ['initdb', "PostgreSQL's initdb and postgres", 'apt-get install postgresql'],
    ['postgres', "PostgreSQL's initdb and postgres", 'apt-get install postgresql'],
    ['chromium', '/chromium', 'apt-get install chromium'],
    ['promtool', 'promtool', 'apt-get install prometheus'],
    ['tinyproxy', 'tinyproxy', 'apt-get install tinyproxy'],
  ])('without %s: one line naming it and its Debian package', (gone, named, install) => {
    const result = preflight(machine([gone]));
    if (result.ok) throw new Error('the preflight passed without ' + gone);
    const text = describeMissing(result.missing);
    const lines = text.split('\n').filter((line) => line.startsWith('  missing '));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(named);
    expect(lines[0]).toMatch(new RegExp(`${install}$`));
    expect(text).toContain(`sudo apt-get install -y ${install.split(' ').pop()}`);
  });

  it('names every missing part at once, with one command installing them all', () => {
    const result = preflight(machine(['redis-server', 'initdb', 'chromium', 'promtool', 'tinyproxy']));
    if (result.ok) throw new Error('the preflight passed on an empty machine');
    expect(describeMissing(result.missing).split('\n')).toEqual([
      'pnpm test cannot start: this machine lacks what the suite runs.',
      expect.stringMatching(/^ {2}missing redis-server \(.*\): apt-get install redis-server$/),
      expect.stringMatching(
        /^ {2}missing PostgreSQL's initdb and postgres \(.*\): apt-get install postgresql$/,
      ),
      expect.stringMatching(/^ {2}missing .*\/chromium \(.*\): apt-get install chromium$/),
      expect.stringMatching(/^ {2}missing promtool \(.*\): apt-get install prometheus$/),
      expect.stringMatching(/^ {2}missing tinyproxy \(.*\): apt-get install tinyproxy$/),
      'Install them all (Debian/Ubuntu): sudo apt-get install -y redis-server postgresql chromium prometheus tinyproxy',
    ]);
  });

  it("needs no PostgreSQL programs when a PostgreSQL answers (the developer's own is used)", () => {
    const input = { ...machine(['initdb', 'postgres']), needPostgresServer: false };
    expect(preflight(input)).toEqual({
      ok: true,
      found: { redisServer: join(root, 'bin', 'redis-server'), postgresBin: undefined },
    });
  });

  it('finds the PostgreSQL programs on PATH where a system keeps them there', () => {
    const input = machine(['initdb', 'postgres']);
    for (const name of ['initdb', 'postgres']) symlinkSync(real(name), join(root, 'bin', name));
    expect(preflight(input)).toMatchObject({ ok: true, found: { postgresBin: join(root, 'bin') } });
  });

  it('does not take a file that cannot be run for the program', () => {
    const input = machine(['redis-server']);
    writeFileSync(join(root, 'bin', 'redis-server'), 'not a program', { mode: 0o644 });
    expect(preflight(input)).toMatchObject({ ok: false, missing: [{ what: 'redis-server' }] });
  });
});
