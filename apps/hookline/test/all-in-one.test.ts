import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useRedis } from '@hookline/testing';
import { spawnStart } from './support/start-command';

// `pnpm start` as a newcomer runs it: one process, generated secrets, a printed key that works, the demo
// receiver getting a real delivery, and a clean exit on SIGTERM.
describe('pnpm start (all-in-one)', () => {
  const ctx = useRedis('aio');

  /** `pnpm start -- --demo` with a data directory of its own, on the test's Redis prefix; waits for the banner. */
  async function start() {
    const dataDir = mkdtempSync(join(tmpdir(), 'hookline-aio-'));
    ctx.onCleanup(() => rmSync(dataDir, { recursive: true, force: true }));
    const hookline = spawnStart(ctx, dataDir, ['--demo']);
    // Ready within seconds alone; a loaded machine (the suite runs two suites at once) has taken over 30 s to
    // start the embedded database. The wait is for readiness, not a promise about speed.
    await hookline.waitForOutput('secrets.json', 60000);
    return hookline;
  }

  it('comes up, prints working credentials, delivers the demo event and stops cleanly', async () => {
    const hookline = await start();
    const out = hookline.output();
    const base = /Website\s+(http:\/\/localhost:\d+)\//.exec(out)![1]!;
    const key = /Bearer (\S+)/.exec(out)![1]!;
    expect(out).toMatch(/sign in as demo@hookline\.local \/ \S+/);

    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const created = await fetch(`${base}/v1/accounts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'From the printed key' }),
    });
    expect(created.status).toBe(201);
    expect((await fetch(`${base}/login`)).status).toBe(200);
    expect((await fetch(`${base}/admin/queues`)).status).toBe(401);
    await hookline.waitForOutput('demo receiver <- POST /webhook (application/json; charset=utf-8)');

    hookline.kill('SIGTERM');
    expect(await hookline.exited).toEqual({ code: 0, signal: null });
  }, 120000);

  it('still starts the demo when its account exists with a password from another data directory', async () => {
    // A first start makes the demo account with the password of its own data directory; Redis outlives it.
    const first = await start();
    first.kill('SIGTERM');
    expect(await first.exited).toEqual({ code: 0, signal: null });

    const hookline = await start();
    const out = hookline.output();
    expect(out).toMatch(/sign in as demo@hookline\.local \(your password\)/);
    expect(out).toMatch(
      /Demo\s+a hook of demo@hookline\.local \(account acct_[0-9a-f]+\) delivers to http:\/\/127\.0\.0\.1:\d+/,
    );
    await hookline.waitForOutput('demo receiver <- POST /webhook (application/json; charset=utf-8)');
    hookline.kill('SIGTERM');
    expect(await hookline.exited).toEqual({ code: 0, signal: null });
  }, 150000);
});
