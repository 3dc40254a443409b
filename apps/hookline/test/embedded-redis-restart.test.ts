import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SAMPLE_CALL_DATA } from '@hookline/core';
import { EMBEDDED_REDIS_RESTARTS, redisAnswers } from '@hookline/redis';
import { startReceiver, useRedis, waitUntil } from '@hookline/testing';
import { spawnStart } from './support/start-command';

/** Whether a process with this id runs (signal 0 asks without sending anything). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

// `pnpm start` with its embedded redis-server, which then dies (an OOM kill, a crash, someone's kill -9): it is
// started again on the same port and AOF, and the API, the worker and the monitor carry on with it, with what
// was accepted before. `--embedded-redis` starts it although the tests' Redis answers on 127.0.0.1:6379.
describe('pnpm start with its embedded Redis', () => {
  const ctx = useRedis('embedded-restart');

  /** `pnpm start -- --embedded-redis` on a data directory of its own; its server is killed at cleanup if left. */
  async function start() {
    const dataDir = mkdtempSync(join(tmpdir(), 'hookline-embedded-'));
    ctx.onCleanup(() => rmSync(dataDir, { recursive: true, force: true }));
    const pidFile = join(dataDir, 'redis', 'redis.pid');
    const serverPid = () => Number(readFileSync(pidFile, 'utf8').trim());
    // Runs after the start below is killed (cleanups run last first): a server a failed test left is not kept.
    ctx.onCleanup(() => {
      try {
        process.kill(serverPid(), 'SIGKILL');
      } catch {
        // none left
      }
    });
    const hookline = spawnStart(ctx, dataDir, ['--embedded-redis'], {
      // '' counts as unset: the start chooses its Redis itself.
      REDIS_URL: '',
      HOOKLINE_ALLOW_NETWORKS: '127.0.0.1/32',
    });
    await hookline.waitForOutput('secrets.json', 60000);
    const started =
      /--embedded-redis: started an embedded redis-server at redis:\/\/127\.0\.0\.1:(\d+) \(AOF in (\S+)\)/.exec(
        hookline.output(),
      );
    expect(started?.[2]).toBe(join(dataDir, 'redis'));
    const port = Number(started![1]);
    return { hookline, dataDir, serverPid, port, redisUrl: `redis://127.0.0.1:${port}` };
  }

  it('starts the embedded redis-server again when it is killed, and stops it for good on SIGTERM', async () => {
    const receiver = ctx.closeLater(await startReceiver());
    const { hookline, serverPid, redisUrl } = await start();
    const out = hookline.output();
    const base = /Website\s+(http:\/\/localhost:\d+)\//.exec(out)![1]!;
    const key = /Bearer (\S+)/.exec(out)![1]!;
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const publish = (accountId: string, callId: string) =>
      call('POST', `/v1/accounts/${accountId}/events`, {
        type: 'call_created',
        data: { ...SAMPLE_CALL_DATA, call_id: callId },
      });

    const account = await call('POST', '/v1/accounts', { name: 'Embedded' });
    const hook = await call('POST', `/v1/accounts/${account.body.id}/hooks`, {
      url: receiver.url(),
      format: 'json',
    });
    expect(hook.status).toBe(201);
    const acct = account.body.id as string;
    expect((await publish(acct, 'before-the-kill')).status).toBe(202);
    await receiver.waitFor(1);

    const first = serverPid();
    process.kill(first, 'SIGKILL');
    await hookline.waitForOutput('"msg":"the embedded redis-server runs again"', 30000);
    const second = serverPid();
    expect(second).not.toBe(first);
    expect(hookline.output()).toMatch(
      /"level":50,.*"serverPid":\d+.*"signal":"SIGKILL".*"msg":"the embedded redis-server stopped"/,
    );
    // The same address: the process's clients reconnect to it by themselves.
    expect(await redisAnswers(redisUrl)).toBe(true);

    // Accepted again once the API's client has reconnected (503 until then: nothing is accepted meanwhile).
    await waitUntil(async () => (await fetch(`${base}/readyz`)).ok, 'the API ready again');
    // The account and hook came back from the AOF; the worker delivers again.
    expect((await publish(acct, 'after-the-kill')).status).toBe(202);
    await receiver.waitFor(2, 30000);
    const delivered = receiver.requests.map(
      (r) => (JSON.parse(r.body.toString()) as { call_id: string }).call_id,
    );
    expect(delivered).toEqual(['before-the-kill', 'after-the-kill']);
    // Both attempts in the hook's history, the one from before the kill too (the monitor writes it).
    const history = await waitUntil(async () => {
      const page = await call('GET', `/v1/accounts/${acct}/hooks/${hook.body.id}/deliveries`);
      const records = page.body.data as { call_id: string; outcome: string }[];
      return records.length === 2 ? records : undefined;
    }, 'two records in the history');
    expect(history.map(({ call_id, outcome }) => ({ call_id, outcome }))).toEqual([
      { call_id: 'after-the-kill', outcome: 'delivered' },
      { call_id: 'before-the-kill', outcome: 'delivered' },
    ]);

    hookline.kill('SIGTERM');
    expect(await hookline.exited).toEqual({ code: 0, signal: null });
    // Stopped with it, not started again: no redis-server left behind.
    expect(alive(second)).toBe(false);
    expect(await redisAnswers(redisUrl, 300)).toBe(false);
    expect(hookline.output().match(/the embedded redis-server runs again/g)).toHaveLength(1);
  }, 120000);

  it('gives up when its starts fail one after another, exiting 1 with the reason redis-server gave', async () => {
    const { hookline, dataDir, serverPid, port } = await start();
    // Damaged while it runs (it appends after this, unaware): it cannot load it again.
    const aof = join(dataDir, 'redis', 'appendonlydir');
    const incr = /^file (\S+) seq \d+ type i$/m.exec(
      readFileSync(join(aof, 'appendonly.aof.manifest'), 'utf8'),
    )![1]!;
    appendFileSync(join(aof, incr), 'this is not a command\r\n');
    process.kill(serverPid(), 'SIGKILL');

    expect(await hookline.exited).toEqual({ code: 1, signal: null });
    const out = hookline.output();
    const tries = EMBEDDED_REDIS_RESTARTS.failedStartsBeforeGivingUp;
    expect(out.match(/"msg":"the embedded redis-server did not start again"/g)).toHaveLength(tries - 1);
    expect(out).toContain(`"failedStarts":${tries},`);
    expect(out).toContain('"msg":"the embedded redis-server did not start again; giving up"');
    expect(out).toContain(
      `\nThe embedded redis-server (port ${port}, AOF in ${join(dataDir, 'redis')}) stopped and did not start ` +
        `again ${tries} times in a row: its AOF in ${aof} is damaged; keep a copy of that directory, then repair it ` +
        `with redis-check-aof --fix ${join(aof, 'appendonly.aof.manifest')} (redis-server: "Bad file format ` +
        `reading the append only file ${incr}`,
    );
  }, 120000);
});
