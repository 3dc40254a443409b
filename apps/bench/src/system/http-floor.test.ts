import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectRedis, deletePrefix, TEST_REDIS_URL, uniquePrefix } from '@hookline/testing';
import { floorLines } from '../report-notes';
import { measureHttpFloor } from './http-floor';
import { chooseWorkerEntry } from './worker-entry';

// The HTTP tier's reference, run for real (sources through tsx, the local Redis): every request answered 202
// after its one command, the floor's CPU read from /proc, its keys under the prefix it was given.
describe('the HTTP floor', () => {
  const redis = connectRedis();
  const prefix = uniquePrefix('floor');
  afterAll(async () => {
    await deletePrefix(redis, prefix);
    redis.disconnect();
  });

  it('answers the publisher 202 after one Redis command per event, and reports its CPU per 202', async () => {
    const floor = await measureHttpFloor({
      entry: chooseWorkerEntry('source'),
      env: { REDIS_URL: TEST_REDIS_URL, HOOKLINE_QUEUE_PREFIX: prefix, LOG_LEVEL: 'info' },
      redisPort: Number(new URL(TEST_REDIS_URL).port || 6379),
      artifacts: await mkdtemp(join(tmpdir(), 'hookline-floor-')),
      hooks: [{ accountId: 'acct_a' }, { accountId: 'acct_b' }] as never,
      rate: 50,
      warmupMs: 1500,
      measureMs: 1000,
    });
    expect(floor).toMatchObject({ rate: 50, errors: 0 });
    expect(floor.accepted).toBeGreaterThan(0);
    expect(floor.cpuMicrosPerAccepted).toBeGreaterThan(0);
    // Each accepted event is in its account's stream, as the body the publisher sent.
    const [first] = await redis.xrange(`${prefix}:floor:acct_a`, '-', '+', 'COUNT', 1);
    const fields = first![1];
    expect(JSON.parse(fields[1]!)).toMatchObject({ type: 'call_created', data: { direction: 'outbound' } });
  }, 60_000);

  it('puts the tier beside it: the ratio and what hookline adds per event', () => {
    const floor = { rate: 500, accepted: 4000, cpuMicrosPerAccepted: 200, errors: 0 };
    expect(floorLines(floor, 390)).toEqual([
      expect.stringMatching(
        /^HTTP floor at 500\/s .*: 200 µs CPU per 202 \(4,?000 in the window, 0 errors.*the tier 1\.95x the floor, hookline's own work 190 µs per event\.$/,
      ),
    ]);
    expect(floorLines(undefined, 390)).toEqual([]);
  });
});
