import { redisKeys } from '@hookline/redis';
import { useRedis } from '@hookline/testing';
import { ALIVE_WITHIN_MS, WorkerRoster } from './worker-roster';

describe('the worker roster', () => {
  const ctx = useRedis('roster');

  it("keeps each worker's last heartbeat, drops one that leaves, forgets one long silent", async () => {
    const keys = redisKeys(ctx.prefix);
    let now = 1_000_000;
    const roster = new WorkerRoster(ctx.redis, keys, () => new Date(now));
    await roster.beat('host-1');
    now += 5000;
    await roster.beat('host-2');
    await roster.beat('host-3');
    await roster.leave('host-3');
    expect(await roster.read()).toEqual([
      { name: 'host-1', at: 1_000_000 },
      { name: 'host-2', at: 1_005_000 },
    ]);
    now += 60_000;
    expect(await roster.read(62_000)).toEqual([{ name: 'host-2', at: 1_005_000 }]);
  });

  it('tells whether any worker beat within the last 15 s', async () => {
    const keys = redisKeys(ctx.prefix);
    let now = 1_000_000;
    const roster = new WorkerRoster(ctx.redis, keys, () => new Date(now));
    expect(await roster.anyAlive()).toBe(false);
    await roster.beat('host-1');
    now += ALIVE_WITHIN_MS - 1;
    expect(await roster.anyAlive()).toBe(true);
    now += 1;
    expect(await roster.anyAlive()).toBe(false); // silent: killed or frozen, still on the roster
  });
});
