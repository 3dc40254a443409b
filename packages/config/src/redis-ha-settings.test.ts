import type { ConfigError } from './load-config';
import { loadConfig } from './load-config';

const KEY = 'a'.repeat(64);

describe('Redis high-availability settings', () => {
  it('default to a plain Redis, the sentinel name mymaster and no replica acknowledgements', () => {
    const config = loadConfig({ HOOKLINE_SECRET_KEY: KEY }, 'worker');
    expect(config.REDIS_SENTINELS).toEqual([]);
    expect(config.REDIS_SENTINEL_MASTER).toBe('mymaster');
    expect(config.REDIS_SENTINEL_PASSWORD).toBeUndefined();
    expect(config.HOOKLINE_REDIS_REPLICA_ACKS).toBe(0);
  });

  it('parses the sentinels, their primary name and password, and the replica acknowledgements', () => {
    const config = loadConfig(
      {
        HOOKLINE_SECRET_KEY: KEY,
        REDIS_SENTINELS: 's1:26379, 10.0.0.6:26380,[::1]:26381',
        REDIS_SENTINEL_MASTER: 'hookline-main',
        REDIS_SENTINEL_PASSWORD: 'sentinel-s3cret',
        HOOKLINE_REDIS_REPLICA_ACKS: '1',
      },
      'worker',
    );
    expect(config.REDIS_SENTINELS).toEqual([
      { host: 's1', port: 26379 },
      { host: '10.0.0.6', port: 26380 },
      { host: '::1', port: 26381 },
    ]);
    expect(config.REDIS_SENTINEL_MASTER).toBe('hookline-main');
    expect(config.REDIS_SENTINEL_PASSWORD).toBe('sentinel-s3cret');
    expect(config.HOOKLINE_REDIS_REPLICA_ACKS).toBe(1);
  });

  it('reports every problem at once, each naming its setting', () => {
    let problems: readonly string[] = [];
    try {
      loadConfig(
        {
          HOOKLINE_SECRET_KEY: KEY,
          REDIS_SENTINELS: 'sentinel-without-port',
          REDIS_SENTINEL_MASTER: 'my master',
          HOOKLINE_REDIS_REPLICA_ACKS: '-1',
        },
        'worker',
      );
    } catch (error) {
      problems = (error as ConfigError).problems;
    }
    expect(problems).toEqual([
      expect.stringMatching(/^REDIS_SENTINELS \(entry 1\): "sentinel-without-port" is not host:port/),
      expect.stringMatching(/^REDIS_SENTINEL_MASTER: /),
      expect.stringMatching(/^HOOKLINE_REDIS_REPLICA_ACKS: /),
    ]);
  });

  it('refuses Sentinel together with a Redis Cluster', () => {
    expect(() =>
      loadConfig(
        { HOOKLINE_SECRET_KEY: KEY, REDIS_SENTINELS: 's1:26379', REDIS_CLUSTER_NODES: 'c1:7000' },
        'worker',
      ),
    ).toThrow(/REDIS_SENTINELS: cannot be used with REDIS_CLUSTER_NODES/);
  });

  // Without sentinels they were ignored, and the process quietly used REDIS_URL as a plain Redis.
  it.each(['REDIS_SENTINEL_MASTER', 'REDIS_SENTINEL_PASSWORD'])(
    'refuses %s without REDIS_SENTINELS',
    (name) => {
      let problems: readonly string[] = [];
      try {
        loadConfig({ HOOKLINE_SECRET_KEY: KEY, [name]: 'hookline-main' }, 'worker');
      } catch (error) {
        problems = (error as ConfigError).problems;
      }
      expect(problems).toEqual([
        `${name}: is used only with REDIS_SENTINELS, which is not set (set both, or neither)`,
      ]);
    },
  );
});
