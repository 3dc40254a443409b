import { ConfigError, loadConfig } from './load-config';

const KEY = 'a'.repeat(64);

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({ HOOKLINE_SECRET_KEY: KEY }, 'worker');
    expect(config.HOOKLINE_DELIVERY_TIMEOUT_MS).toBe(15000);
    expect(config.HOOKLINE_SUSPEND_AFTER_FAILURES).toBe(10);
    expect(config.HOOKLINE_SUSPEND_AFTER_MS).toBe(600000);
    expect(config.HOOKLINE_HOLD_MAX).toBe(10000);
    expect(config.HOOKLINE_EVENT_TYPE_HEADER).toBe('X-Service-Event-Type');
    expect(config.HOOKLINE_QUEUE_PREFIX).toBe('hookline');
    expect(config.HOOKLINE_ALLOW_NETWORKS).toEqual([]);
    expect(config.REDIS_URL).toBe('redis://127.0.0.1:6379');
    expect(config.redisUrlGiven).toBe(false);
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('reports every problem at once, naming each setting', () => {
    let error: unknown;
    try {
      loadConfig(
        { PORT: 'eighty', HOOKLINE_ALLOW_NETWORKS: '127.0.0.0/8, nonsense', HOOKLINE_QUEUE_PREFIX: '{x}' },
        'api',
      );
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const text = (error as ConfigError).problems.join('\n');
    for (const name of [
      'PORT',
      'HOOKLINE_ALLOW_NETWORKS',
      'HOOKLINE_QUEUE_PREFIX',
      'HOOKLINE_API_KEY',
      'HOOKLINE_SECRET_KEY',
    ])
      expect(text).toContain(name);
  });

  it('parses the allow-list of networks', () => {
    const config = loadConfig(
      { HOOKLINE_SECRET_KEY: KEY, HOOKLINE_ALLOW_NETWORKS: '127.0.0.0/8,::1/128' },
      'worker',
    );
    expect(config.HOOKLINE_ALLOW_NETWORKS).toEqual(['127.0.0.0/8', '::1/128']);
  });
});
