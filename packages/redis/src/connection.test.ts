import { once } from 'node:events';
import { connectRedis } from '@hookline/testing';
import { answersWithin, clusterAccess, createFailFastRedis, createRequestRedis } from './connection';
import { FAILOVER_BUDGET_MS } from './failover';
import { commandTimeoutOf, REQUEST_COMMAND_TIMEOUT_MS } from './request-deadline';

describe('cluster access from REDIS_URL', () => {
  it('takes the user, the password (URL-decoded) and TLS for rediss://; the host is not used', () => {
    expect(clusterAccess('rediss://hookline:p%40ss%3Aword@ignored:6380')).toEqual({
      username: 'hookline',
      password: 'p@ss:word',
      tls: {},
    });
  });

  it('a password alone, no TLS for redis://', () => {
    expect(clusterAccess('redis://:s3cret@cluster')).toEqual({ password: 's3cret' });
  });

  it('nothing for the default URL', () => {
    expect(clusterAccess('redis://127.0.0.1:6379')).toEqual({});
  });
});

describe('whether Redis answers', () => {
  it('says how fast a connected Redis answered PING', async () => {
    const redis = connectRedis();
    try {
      await once(redis, 'ready');
      expect(await answersWithin(redis, 2000)).toEqual({ ok: true, ms: expect.any(Number) });
    } finally {
      redis.disconnect();
    }
  });

  it('says why at once when the client is not connected, without waiting for a reconnect', async () => {
    const dead = createFailFastRedis('redis://127.0.0.1:1', {
      retryStrategy: () => 1000,
      disconnectTimeout: 1,
    });
    dead.on('error', () => undefined);
    try {
      const started = Date.now();
      expect(await answersWithin(dead, 2000)).toEqual({
        ok: false,
        reason: expect.stringMatching(/^not connected/),
      });
      expect(Date.now() - started).toBeLessThan(500);
    } finally {
      dead.disconnect();
    }
  });
});

describe("the HTTP tier's client", () => {
  const settings = { REDIS_URL: 'redis://127.0.0.1:1', REDIS_CLUSTER_NODES: [] };

  it('gives every command a deadline, longer on a Cluster (its retries wait out a promotion first)', () => {
    const clients = [
      createRequestRedis(settings, { lazyConnect: true }),
      createRequestRedis(
        { ...settings, REDIS_CLUSTER_NODES: [{ host: '127.0.0.1', port: 1 }] },
        { lazyConnect: true },
      ),
      createFailFastRedis(settings, { lazyConnect: true }),
    ];
    try {
      expect(clients.map(commandTimeoutOf)).toEqual([
        REQUEST_COMMAND_TIMEOUT_MS,
        FAILOVER_BUDGET_MS + 1000,
        undefined,
      ]);
    } finally {
      for (const client of clients) client.disconnect();
    }
  });
});
