import { once } from 'node:events';
import type { Socket } from 'node:net';
import type { Redis } from 'ioredis';
import { connectRedis } from '@hookline/testing';
import { batchWritesPerTurn } from './turn-writes';

/** Counts the socket writes a client makes (Node's Writable calls _write for one chunk, _writev for several). */
function countWrites(redis: Redis): { writes: number; chunks: number } {
  const socket = (redis as unknown as { stream: Socket & Record<string, unknown> }).stream;
  const tally = { writes: 0, chunks: 0 };
  const write = socket._write as (...args: unknown[]) => void;
  const writev = socket._writev as (chunks: unknown[], ...rest: unknown[]) => void;
  socket._write = function (this: Socket, ...args: unknown[]) {
    tally.writes += 1;
    tally.chunks += 1;
    return write.apply(this, args);
  };
  socket._writev = function (this: Socket, chunks: unknown[], ...rest: unknown[]) {
    tally.writes += 1;
    tally.chunks += chunks.length;
    return writev.apply(this, [chunks, ...rest]);
  };
  return tally;
}

const key = (i: number) => `hookline-test:turn-writes:${process.pid}:${i}`;

async function fiftyInOneTurn(redis: Redis): Promise<string[]> {
  const sets = Array.from({ length: 50 }, (_, i) => redis.set(key(i), `v${i}`, 'PX', 10_000));
  const gets = Array.from({ length: 50 }, (_, i) => redis.get(key(i)));
  await Promise.all(sets);
  return (await Promise.all(gets)) as string[];
}

describe('batchWritesPerTurn', () => {
  const clients: Redis[] = [];
  afterEach(() => {
    for (const client of clients.splice(0)) client.disconnect();
  });
  const connected = async (batched: boolean): Promise<Redis> => {
    const redis = connectRedis();
    clients.push(redis);
    if (batched) batchWritesPerTurn(redis);
    await once(redis, 'ready');
    return redis;
  };
  const expected = Array.from({ length: 50 }, (_, i) => `v${i}`);

  it('sends the commands of one turn in one socket write, in order, with every reply in its place', async () => {
    const redis = await connected(true);
    const tally = countWrites(redis);
    expect(await fiftyInOneTurn(redis)).toEqual(expected);
    expect(tally).toEqual({ writes: 1, chunks: 100 });
  });

  it('without it, ioredis writes each command on its own (what the batching saves)', async () => {
    const redis = await connected(false);
    const tally = countWrites(redis);
    expect(await fiftyInOneTurn(redis)).toEqual(expected);
    expect(tally.writes).toBe(100);
  });

  it('commands of later turns go out in writes of their own, and a reconnected client is batched too', async () => {
    const redis = await connected(true);
    expect(await redis.ping()).toBe('PONG');
    redis.disconnect(true); // reconnect: a new socket
    await once(redis, 'ready');
    const tally = countWrites(redis);
    expect(await fiftyInOneTurn(redis)).toEqual(expected);
    expect(await redis.get(key(0))).toBe('v0');
    expect(tally).toEqual({ writes: 2, chunks: 101 });
  });
});
