import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { PREVIOUS_SECRET_GRACE_MS, type HookAuth, type HookFormat } from '@hookline/core';
import { createStore, SecretBox } from '@hookline/store';
import { waitUntil } from '@hookline/testing';
import { useHookline } from './harness';

// Signed deliveries end to end (producer -> Redis -> worker -> HTTP), checked by a receiver in its own process
// that verifies with the svix and standardwebhooks libraries exactly as a customer's receiver would.

interface Verdict {
  path: string;
  headers: Record<string, string>;
  body: string;
  svix: boolean[];
  standard: boolean[];
  tamperedBody: boolean;
  tamperedTimestamp: boolean;
}

async function startVerifyingReceiver(onCleanup: (close: () => Promise<unknown>) => void) {
  const child = spawn(process.execPath, [resolve(__dirname, 'fixtures/verifying-receiver.mjs')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((ok) => child.once('exit', ok));
  onCleanup(async () => {
    child.kill('SIGKILL');
    await exited;
  });
  const port = await new Promise<number>((ok, fail) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening (\d+)/.exec(out);
      if (match) ok(Number(match[1]));
    });
    child.once('exit', () => fail(new Error(`verifying receiver exited: ${out}`)));
  });
  const base = `http://127.0.0.1:${port}`;
  return {
    url: (path: string) => `${base}${path}`,
    async secrets(byPath: Record<string, (string | undefined)[]>) {
      await fetch(`${base}/__secrets`, { method: 'POST', body: JSON.stringify(byPath) });
    },
    async results(count: number): Promise<Verdict[]> {
      let found: Verdict[] = [];
      await waitUntil(async () => {
        found = (await (await fetch(`${base}/__results`)).json()) as Verdict[];
        return found.length >= count;
      }, `${count} verified requests`);
      return found;
    },
  };
}

describe('Standard Webhooks signatures, verified by svix and standardwebhooks in a receiver', () => {
  const h = useHookline();

  it('verify for JSON and form bodies with Basic and Bearer auth; a tampered body or timestamp fails', async () => {
    const receiver = await startVerifyingReceiver(h.ctx.onCleanup);
    const account = await h.account();
    const auths: HookAuth[] = [
      { scheme: 'bearer', token: 'tok_123456789' },
      { scheme: 'basic', username: 'jonas', password: 'pä55:word' },
    ];
    const hooks = [];
    for (const format of ['json', 'form'] as HookFormat[])
      for (const auth of auths) {
        const path = `/${format}/${auth.scheme}`;
        const hook = await h.hook(account.id, { url: receiver.url(path), format, auth, signing: true });
        hooks.push({ path, auth, secret: hook.signing_secret! });
      }
    await receiver.secrets(Object.fromEntries(hooks.map((hook) => [hook.path, [hook.secret]])));
    h.startWorker();
    const { id } = await h.publish(account.id);
    const verdicts = await receiver.results(hooks.length);
    expect(verdicts.map((v) => v.path).sort()).toEqual(hooks.map((hook) => hook.path).sort());
    for (const verdict of verdicts) {
      expect(verdict).toMatchObject({
        svix: [true],
        standard: [true],
        tamperedBody: false,
        tamperedTimestamp: false,
      });
      expect(verdict.headers['webhook-id']).toBe(id);
      expect(verdict.headers.authorization).toMatch(/^(Basic|Bearer) /);
      expect(Math.abs(Number(verdict.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    }
  });

  it('during 24 hours after a rotation either secret verifies; after them only the new one', async () => {
    const receiver = await startVerifyingReceiver(h.ctx.onCleanup);
    const account = await h.account();
    // The rotations are made on a clock the test sets: one an hour ago, one 25 hours ago. The worker sends now.
    let now = Date.now();
    const store = createStore({
      redis: h.ctx.redis,
      keys: h.keys,
      secretBox: SecretBox.fromKey(Buffer.from(h.secretKeyHex, 'hex')),
      hookQueues: h.hookQueues,
      clock: () => new Date(now),
    });
    const rotate = async (path: string, ago: number) => {
      const hook = await h.hook(account.id, { url: receiver.url(path), signing: true });
      now = Date.now() - ago;
      const rotated = await store.hooks.rotateSigningSecret(account.id, hook.id, 'operator');
      return [rotated!.signing_secret, hook.signing_secret];
    };
    const recent = await rotate('/recent', 3600 * 1000);
    const old = await rotate('/old', PREVIOUS_SECRET_GRACE_MS + 3600 * 1000);
    await receiver.secrets({ '/recent': recent, '/old': old });
    h.startWorker();
    await h.publish(account.id);
    const verdicts = await receiver.results(2);
    const of = (path: string) => verdicts.find((v) => v.path === path)!;
    expect(of('/recent')).toMatchObject({ svix: [true, true], standard: [true, true] });
    expect(of('/recent').headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(of('/old')).toMatchObject({ svix: [true, false], standard: [true, false] });
    expect(of('/old').headers['webhook-signature']!.split(' ')).toHaveLength(1);
  });

  it('adds no signature headers to a hook that does not sign', async () => {
    const receiver = await startVerifyingReceiver(h.ctx.onCleanup);
    const account = await h.account();
    await h.hook(account.id, {
      url: receiver.url('/plain'),
      auth: { scheme: 'bearer', token: 'tok_123456789' },
    });
    h.startWorker();
    await h.publish(account.id);
    const [verdict] = await receiver.results(1);
    expect(Object.keys(verdict!.headers).filter((name) => name.startsWith('webhook-'))).toEqual([]);
    expect(verdict!.headers.authorization).toBe('Bearer tok_123456789');
  });
});
