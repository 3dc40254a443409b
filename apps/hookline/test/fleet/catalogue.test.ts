import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEventCatalog, type EventCatalog } from '@hookline/core';
import { Producer } from '@hookline/queue';
import { createStore, SecretBox } from '@hookline/store';
import { spawnEntry, startReceiver, TEST_REDIS_URL } from '@hookline/testing';
import { SAMPLE, useHookline } from './harness';

// Catalogue kinds and subscriptions end to end (producer -> Redis -> worker -> HTTP), and a bad catalogue
// stopping the real entry points.

const CATALOG_TEXT = JSON.stringify({
  kinds: [
    {
      name: 'call_ended',
      fields: [
        { name: 'call_id', type: 'string' },
        { name: 'duration', type: 'decimal' },
        { name: 'ended_at', type: 'timestamp' },
        { name: 'date', type: 'timestamp', optional: true },
      ],
    },
  ],
});

function catalogue(): EventCatalog {
  const parsed = parseEventCatalog(CATALOG_TEXT);
  if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
  return parsed.catalog;
}

describe('event kinds of the catalogue, and subscriptions', () => {
  const h = useHookline();

  function parts() {
    const catalog = catalogue();
    const store = createStore({
      redis: h.ctx.redis,
      keys: h.keys,
      secretBox: SecretBox.fromKey(Buffer.from(h.secretKeyHex, 'hex')),
      hookQueues: h.hookQueues,
      catalog,
    });
    const producer = new Producer({
      redis: h.ctx.redis,
      keys: h.keys,
      catalog,
      erasureTags: store.erasureTags,
    });
    h.ctx.closeLater(producer);
    return { store, producer };
  }

  it('routes each kind only to its hooks, in each hook its own order, with the kind in header and EventType', async () => {
    const { store, producer } = parts();
    const receiver = await startReceiver();
    h.ctx.closeLater(receiver);
    const account = await h.account();
    const hook = (path: string, format: 'json' | 'form', events?: string[]) =>
      store.hooks.create(
        account.id,
        { url: receiver.url(path), format, ...(events ? { events } : {}) },
        'operator',
      );
    await hook('/all', 'json');
    await hook('/created', 'form', ['call_created']);
    await hook('/ended', 'form', ['call_ended']);
    h.startWorker();
    const sent: string[] = [];
    for (let i = 0; i < 6; i += 1) {
      const callId = `c-${i}`;
      if (i % 2 === 0) {
        await producer.publish(account.id, { type: 'call_created', data: { ...SAMPLE, call_id: callId } });
      } else {
        const answer = await producer.publish(account.id, {
          type: 'call_ended',
          data: { call_id: callId, duration: `${i}.50`, ended_at: '2016-03-01T08:35:00.1234567' },
        });
        expect(answer.hooks).toHaveLength(2);
      }
      sent.push(callId);
    }
    await receiver.waitFor(12);
    const at = (path: string) => receiver.requests.filter((r) => r.path === path);
    const callIds = (path: string) =>
      at(path).map((r) => {
        const body = r.body.toString('utf8');
        return body.startsWith('{')
          ? (JSON.parse(body) as { call_id: string }).call_id
          : new URLSearchParams(body).get('call_id');
      });
    expect(callIds('/all')).toEqual(sent);
    expect(callIds('/created')).toEqual(sent.filter((_, i) => i % 2 === 0));
    expect(callIds('/ended')).toEqual(sent.filter((_, i) => i % 2 === 1));
    for (const request of receiver.requests) {
      const kind = request.headers['x-service-event-type'];
      const body = request.body.toString('utf8');
      const eventType = body.startsWith('{')
        ? (JSON.parse(body) as { EventType: string }).EventType
        : new URLSearchParams(body).get('EventType');
      expect(eventType).toBe(kind);
    }
    const ended = at('/all')[1]!.body.toString('utf8');
    expect(ended).toMatch(
      /^\{"EventType":"call_ended","call_id":"c-1","duration":1\.50,"ended_at":"2016-03-01T08:35:00\.1234567","date":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}"\}$/,
    );
    expect(at('/ended')[0]!.body.toString('utf8')).toMatch(
      /^EventType=call_ended&call_id=c-1&duration=1\.50&ended_at=2016-03-01T08%3A35%3A00\.1234567&date=\d{4}-\d\d-\d\dT\d\d%3A\d\d%3A\d\d\.\d{7}$/,
    );
  });

  it('delivers a catalogue kind with a worker that does not know it (the job carries its layout)', async () => {
    const { store, producer } = parts();
    const receiver = await startReceiver();
    h.ctx.closeLater(receiver);
    const account = await h.account();
    await store.hooks.create(account.id, { url: receiver.url('/in'), format: 'json' }, 'operator');
    // This worker process is started without HOOKLINE_EVENT_CATALOG: call_created is all it knows.
    const worker = h.spawnWorker();
    await worker.waitForOutput('worker started');
    await producer.publish(account.id, {
      type: 'call_ended',
      data: {
        call_id: 'c-9',
        duration: '0.0100',
        ended_at: '2016-03-01T08:35:00.0000000',
        date: '2016-03-01T08:36:00.0000000',
      },
    });
    await receiver.waitFor(1);
    expect(receiver.requests[0]!.body.toString('utf8')).toBe(
      '{"EventType":"call_ended","call_id":"c-9","duration":0.0100,"ended_at":"2016-03-01T08:35:00.0000000","date":"2016-03-01T08:36:00.0000000"}',
    );
    expect(receiver.requests[0]!.headers['x-service-event-type']).toBe('call_ended');
  });
});

describe('a bad catalogue file', () => {
  it.each(['apps/hookline/src/http-main.ts', 'apps/hookline/src/worker-main.ts'])(
    'stops %s at start with every problem named',
    async (entry) => {
      const dir = mkdtempSync(join(tmpdir(), 'hookline-catalog-'));
      const file = join(dir, 'catalog.json');
      writeFileSync(
        file,
        JSON.stringify({
          kinds: [
            { name: 'call_ended', fields: [{ name: 'duration', type: 'money' }] },
            { name: 'call_ended', fields: [{ name: 'EventType', type: 'string' }] },
          ],
        }),
      );
      const child = spawnEntry(entry, {
        REDIS_URL: TEST_REDIS_URL,
        HOOKLINE_API_KEY: 'test-operator-key-0123456789abcdef',
        HOOKLINE_SECRET_KEY: 'ab'.repeat(32),
        HOOKLINE_EVENT_CATALOG: file,
        HOOKLINE_METRICS_PORT: '0',
        PORT: '0',
      });
      const { code } = await child.exited;
      expect(code).toBe(1);
      const output = child.output();
      expect(output).toContain('Invalid configuration');
      expect(output).toContain(
        `HOOKLINE_EVENT_CATALOG (${file}): kinds[0] (call_ended).fields[0].type: must be one of string, decimal, timestamp`,
      );
      expect(output).toContain(
        `HOOKLINE_EVENT_CATALOG (${file}): kinds[1] (call_ended).fields[0].name: is reserved`,
      );
      expect(output).toContain(
        `HOOKLINE_EVENT_CATALOG (${file}): kinds[1] (call_ended).name: repeats an earlier kind`,
      );
    },
  );
});
