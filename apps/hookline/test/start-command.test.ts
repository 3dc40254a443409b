import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnEntry, TEST_REDIS_URL, useRedis, waitUntil } from '@hookline/testing';
import { spawnStart } from './support/start-command';

// `pnpm start -- --help` / `--version` answer and exit without starting anything: no Redis, no data directory.
describe('pnpm start, asked what it is', () => {
  // A REDIS_URL that cannot answer: were anything started, the process would not exit 0 promptly.
  const env = { REDIS_URL: 'redis://127.0.0.1:1', HOOKLINE_DATA_DIR: '/nonexistent/hookline-data' };
  const version = (
    JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as { version: string }
  ).version;

  it("prints the package's version for --version and exits 0", async () => {
    const hookline = spawnEntry('apps/hookline/src/main.ts', env, ['--', '--version']);
    expect(await hookline.exited).toEqual({ code: 0, signal: null });
    expect(hookline.output()).toBe(`${version}\n`);
  }, 30000);

  it('prints the usage, --version listed, for --help and exits 0', async () => {
    const hookline = spawnEntry('apps/hookline/src/main.ts', env, ['--', '--help']);
    expect(await hookline.exited).toEqual({ code: 0, signal: null });
    expect(hookline.output()).toMatch(
      /^Usage: pnpm start \[-- \[--demo\] \[--embedded-redis\] \| --help \| --version\]/,
    );
  }, 30000);

  it('refuses an unknown flag with the usage, exit 2', async () => {
    const hookline = spawnEntry('apps/hookline/src/main.ts', env, ['--', '--verbose']);
    expect(await hookline.exited).toEqual({ code: 2, signal: null });
    expect(hookline.output()).toMatch(/^Unknown argument: --verbose\n\nUsage: pnpm start/);
  }, 30000);
});

describe('pnpm start with a REDIS_URL that is not a Redis URL', () => {
  let dataDir = '';
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'hookline-start-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  // Redis answers on that address (the tests' Redis): only the scheme is wrong, and the message says so.
  it.each([TEST_REDIS_URL.replace(/^redis:/, 'http:'), 'notaurl'])(
    'names the setting and what it must be for %s, instead of saying Redis does not answer',
    async (url) => {
      const hookline = spawnEntry('apps/hookline/src/main.ts', {
        REDIS_URL: url,
        HOOKLINE_DATA_DIR: dataDir,
      });
      expect(await hookline.exited).toEqual({ code: 1, signal: null });
      expect(hookline.output()).toContain(
        '  - REDIS_URL: must be a redis:// or rediss:// URL, e.g. redis://127.0.0.1:6379\n',
      );
      expect(hookline.output()).not.toContain('does not answer');
    },
    30000,
  );
});

describe('pnpm start on a HOST that is no address of this machine', () => {
  const ctx = useRedis('start-host');

  it('exits 1 naming HOST, not with the bare network error', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hookline-start-'));
    ctx.onCleanup(() => rmSync(dataDir, { recursive: true, force: true }));
    // 192.0.2.1 is a documentation address (RFC 5737): no machine has it, and binding to it sends nothing.
    const hookline = spawnEntry('apps/hookline/src/main.ts', {
      HOST: '192.0.2.1',
      PORT: '0',
      REDIS_URL: TEST_REDIS_URL,
      HOOKLINE_DATA_DIR: dataDir,
      HOOKLINE_QUEUE_PREFIX: ctx.prefix,
      LOG_LEVEL: 'warn',
    });
    ctx.onCleanup(async () => {
      hookline.kill('SIGKILL');
      await hookline.exited;
    });
    expect(await hookline.exited).toEqual({ code: 1, signal: null });
    expect(hookline.output()).toMatch(/^HOST=192\.0\.2\.1: cannot listen there \(listen EADDRNOTAVAIL/m);
  }, 60000);
});

describe('pnpm start on a data directory', () => {
  const ctx = useRedis('start-lock');

  const start = (dataDir: string) => spawnStart(ctx, dataDir);

  it('runs one start at a time on it: a second is refused by name, a killed one is taken over', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hookline-start-'));
    ctx.onCleanup(() => rmSync(dataDir, { recursive: true, force: true }));
    const first = start(dataDir);
    await first.waitForOutput('secrets.json', 60000);

    // Its embedded database and AOF take one process: a second start on them would corrupt them.
    const second = start(dataDir);
    expect(await second.exited).toEqual({ code: 1, signal: null });
    expect(second.output()).toContain(
      `HOOKLINE_DATA_DIR=${dataDir}: another pnpm start (pid ${first.child.pid}) uses this data directory. ` +
        'Stop it first, or give this one a HOOKLINE_DATA_DIR of its own.',
    );

    // Killed, it cannot let go: the next start finds its pid gone and takes the directory over.
    first.kill('SIGKILL');
    await first.exited;
    const third = start(dataDir);
    await third.waitForOutput('hookline is running', 60000);
    third.kill('SIGTERM');
    expect(await third.exited).toEqual({ code: 0, signal: null });
    // A clean stop lets go of it.
    expect(() => readFileSync(join(dataDir, 'start.pid'))).toThrow(/ENOENT/);
  }, 120000);

  it('names a secrets file it cannot read, and what to do, instead of a bare JSON error', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hookline-start-'));
    ctx.onCleanup(() => rmSync(dataDir, { recursive: true, force: true }));
    writeFileSync(join(dataDir, 'secrets.json'), '{ apiKey: ');
    const hookline = start(dataDir);
    expect(await hookline.exited).toEqual({ code: 1, signal: null });
    expect(hookline.output()).toMatch(
      new RegExp(
        `^${join(dataDir, 'secrets.json')}: .*JSON.*\\. Mend it, or move it away to have new secrets made`,
        'm',
      ),
    );
  }, 60000);
});

describe('pnpm start with a REDIS_URL that does not answer', () => {
  const ctx = useRedis('start-redis-url');

  it('exits 1 naming REDIS_URL without its password', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hookline-start-'));
    ctx.onCleanup(() => rmSync(dataDir, { recursive: true, force: true }));
    // Nothing listens on this port of the tests' range.
    const hookline = spawnStart(ctx, dataDir, [], { REDIS_URL: 'redis://ops:Secr3tPass@127.0.0.1:18698' });
    expect(await hookline.exited).toEqual({ code: 1, signal: null });
    expect(hookline.output()).toContain(
      'Redis does not answer at REDIS_URL=redis://ops:****@127.0.0.1:18698',
    );
    expect(hookline.output()).not.toContain('Secr3tPass');
  }, 60000);
});

describe('pnpm start -- --embedded-redis with a Redis named as well', () => {
  const ctx = useRedis('start-embedded-given');

  it('exits 1 naming the settings that contradict it, starting nothing', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hookline-start-'));
    ctx.onCleanup(() => rmSync(dataDir, { recursive: true, force: true }));
    const hookline = spawnStart(ctx, dataDir, ['--embedded-redis'], {
      REDIS_CLUSTER_NODES: '127.0.0.1:7000',
    });
    expect(await hookline.exited).toEqual({ code: 1, signal: null });
    expect(hookline.output()).toBe(
      '--embedded-redis starts a Redis of its own; it cannot be used with REDIS_URL or REDIS_CLUSTER_NODES. ' +
        'Unset them, or leave out --embedded-redis\n',
    );
    expect(() => readFileSync(join(dataDir, 'redis', 'redis.pid'))).toThrow(/ENOENT/);
  }, 60000);
});

describe('pnpm start -- --embedded-redis without a redis-server binary', () => {
  const ctx = useRedis('start-embedded-missing');

  // A Redis answers on 6379 here: the flag, not a missing Redis, is why one was to be started.
  it('says the flag needs the binary, and how to get one', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hookline-start-'));
    const emptyBin = mkdtempSync(join(tmpdir(), 'hookline-bin-'));
    ctx.onCleanup(() => {
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(emptyBin, { recursive: true, force: true });
    });
    const hookline = spawnEntry(
      'apps/hookline/src/main.ts',
      { PATH: emptyBin, HOOKLINE_DATA_DIR: dataDir, HOOKLINE_QUEUE_PREFIX: ctx.prefix, PORT: '0' },
      ['--', '--embedded-redis'],
    );
    ctx.onCleanup(() => hookline.kill('SIGKILL'));
    expect(await hookline.exited).toEqual({ code: 1, signal: null });
    expect(hookline.output()).toContain(
      '--embedded-redis needs a redis-server binary, and there is none on the PATH.\n' +
        '  Install one:  sudo apt-get install redis-server',
    );
    expect(hookline.output()).not.toContain('No Redis answers');
  }, 60000);
});

describe('pnpm start with secrets set to the empty string', () => {
  const ctx = useRedis('start-empty');

  // README: a setting set to '' counts as not set, and for these the default is the generated one.
  it('uses the generated ones from secrets.json, as when they are unset', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hookline-start-'));
    ctx.onCleanup(() => rmSync(dataDir, { recursive: true, force: true }));
    const hookline = spawnStart(ctx, dataDir, [], {
      HOOKLINE_API_KEY: '',
      HOOKLINE_SECRET_KEY: '',
      HOOKLINE_ADMIN_PASSWORD: '',
    });
    await hookline.waitForOutput('secrets.json (generated', 60000);
    const secrets = JSON.parse(readFileSync(join(dataDir, 'secrets.json'), 'utf8')) as {
      apiKey: string;
      adminPassword: string;
    };
    const out = hookline.output();
    expect(out).not.toContain('undefined');
    expect(out).toContain(`Authorization: Bearer ${secrets.apiKey}\n`);
    expect(out).toMatch(new RegExp(`Bull Board +http://\\S+ +admin / ${secrets.adminPassword}\\n`));
    const base = /Website\s+(http:\/\/localhost:\d+)\//.exec(out)![1]!;
    const admin = `Basic ${Buffer.from(`admin:${secrets.adminPassword}`).toString('base64')}`;
    expect((await fetch(`${base}/admin/queues`, { headers: { authorization: admin } })).status).toBe(200);
    const created = await fetch(`${base}/v1/accounts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secrets.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'With the generated key' }),
    });
    expect(created.status).toBe(201);
    hookline.kill('SIGTERM');
    expect(await hookline.exited).toEqual({ code: 0, signal: null });
  }, 120000);
});

describe('pnpm start -- --demo with the demo address already allowed', () => {
  // (and the banner's Publish line, a command that works as printed)
  const ctx = useRedis('start-demo-allowed');

  // The demo adds 127.0.0.1/32 to HOOKLINE_ALLOW_NETWORKS; listed twice, loadConfig would refuse the list.
  it('starts, not adding it a second time', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hookline-start-'));
    ctx.onCleanup(() => rmSync(dataDir, { recursive: true, force: true }));
    const hookline = spawnStart(ctx, dataDir, ['--demo'], {
      HOOKLINE_ALLOW_NETWORKS: '10.0.0.0/8, 127.0.0.1/32',
    });
    await hookline.waitForOutput('secrets.json (generated', 60000);
    expect(hookline.output()).toContain('hookline is running');

    // The printed command publishes to the demo account, and its event reaches the demo receiver.
    const command =
      /^ {2}Publish {5}curl -s -X POST (\S+) -H 'Authorization: (Bearer \S+)' -H '(Content-Type): (application\/json)' -d '(.+)'$/m.exec(
        hookline.output(),
      );
    expect(command).not.toBeNull();
    const [, url, authorization, , contentType, body] = command!;
    const published = await fetch(url!, {
      method: 'POST',
      headers: { authorization: authorization!, 'content-type': contentType! },
      body: body!,
    });
    expect(published.status).toBe(202);
    const { id } = (await published.json()) as { id: string };
    await hookline.waitForOutput(`"EventType":"call_created"`, 30000);
    await waitUntil(
      async () => (hookline.output().match(/demo receiver <- POST/g) ?? []).length === 2,
      'the test event and the published one received',
      30000,
    );
    expect(id).toMatch(/^evt_/);
    hookline.kill('SIGTERM');
    expect(await hookline.exited).toEqual({ code: 0, signal: null });
  }, 120000);
});
