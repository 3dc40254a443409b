import { createServer } from 'node:http';
import { ConfigError, loadConfig, secretKeyOf } from './load-config';

const KEY = 'a'.repeat(64);

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({ HOOKLINE_SECRET_KEY: KEY }, 'worker');
    expect(config.HOOKLINE_DELIVERY_TIMEOUT_MS).toBe(15000);
    expect(config.HOOKLINE_SUSPEND_AFTER_FAILURES).toBe(10);
    expect(config.HOOKLINE_SUSPEND_AFTER_MS).toBe(600000);
    expect(config.HOOKLINE_HOLD_MAX).toBe(10000);
    expect(config.HOOKLINE_HTTP_DRAIN_MS).toBe(10000);
    expect(config.HOOKLINE_EVENT_TYPE_HEADER).toBe('X-Service-Event-Type');
    expect(config.HOOKLINE_QUEUE_PREFIX).toBe('hookline');
    expect(config.HOOKLINE_ALLOW_NETWORKS).toEqual([]);
    expect(config.REDIS_URL).toBe('redis://127.0.0.1:6379');
    expect(config.redisUrlGiven).toBe(false);
    expect(config.REDIS_CLUSTER_NODES).toEqual([]);
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('reads a setting set to the empty string as not set (the README says so)', () => {
    const config = loadConfig(
      {
        HOOKLINE_SECRET_KEY: KEY,
        HOOKLINE_QUEUE_PREFIX: '',
        HOOKLINE_DELIVERY_TIMEOUT_MS: '',
        REDIS_URL: '',
      },
      'worker',
    );
    expect(config.HOOKLINE_QUEUE_PREFIX).toBe('hookline');
    expect(config.HOOKLINE_DELIVERY_TIMEOUT_MS).toBe(15000);
    expect(config.redisUrlGiven).toBe(false);
    expect(() => loadConfig({ HOOKLINE_SECRET_KEY: '' }, 'worker')).toThrow(
      /HOOKLINE_SECRET_KEY: is required/,
    );
  });

  it('reports every problem at once, naming each setting', () => {
    let error: unknown;
    try {
      loadConfig(
        {
          PORT: 'eighty',
          HOOKLINE_ALLOW_NETWORKS: '127.0.0.0/8, nonsense',
          HOOKLINE_QUEUE_PREFIX: '{x}',
          REDIS_CLUSTER_NODES: '10.0.0.5:7000,no-port',
        },
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
      'REDIS_CLUSTER_NODES',
      'HOOKLINE_API_KEY',
      'HOOKLINE_SECRET_KEY',
    ])
      expect(text).toContain(name);
  });

  it("names the log levels LOG_LEVEL takes, in words, not the validator's", () => {
    expect(() => loadConfig({ HOOKLINE_SECRET_KEY: KEY, LOG_LEVEL: 'verbose' }, 'worker')).toThrow(
      new ConfigError(['LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent']),
    );
  });

  it('takes the HTTP drain as whole milliseconds from 0 to 120000, and names the setting otherwise', () => {
    const drain = (value: string) =>
      loadConfig({ HOOKLINE_SECRET_KEY: KEY, HOOKLINE_HTTP_DRAIN_MS: value }, 'worker')
        .HOOKLINE_HTTP_DRAIN_MS;
    expect(drain('0')).toBe(0);
    expect(drain('120000')).toBe(120000);
    for (const value of ['-1', '120001', '2.5', 'ten'])
      expect(() => drain(value)).toThrow(/HOOKLINE_HTTP_DRAIN_MS/);
  });

  it('refuses a headers deadline longer than the whole request deadline, naming both settings', () => {
    const problems = (env: Record<string, string>) => {
      try {
        const config = loadConfig({ HOOKLINE_SECRET_KEY: KEY, ...env }, 'worker');
        // What Node's HTTP server is given: it throws on a pair it refuses.
        createServer({
          headersTimeout: config.HOOKLINE_HTTP_HEADERS_TIMEOUT_MS,
          requestTimeout: config.HOOKLINE_HTTP_REQUEST_TIMEOUT_MS,
        });
        return [];
      } catch (error) {
        return (error as ConfigError).problems;
      }
    };
    expect(problems({ HOOKLINE_HTTP_REQUEST_TIMEOUT_MS: '5000' })).toEqual([
      'HOOKLINE_HTTP_HEADERS_TIMEOUT_MS (10000, its default) must not exceed HOOKLINE_HTTP_REQUEST_TIMEOUT_MS ' +
        '(5000): the headers are part of the request',
    ]);
    expect(problems({ HOOKLINE_HTTP_HEADERS_TIMEOUT_MS: '40000' })).toEqual([
      'HOOKLINE_HTTP_HEADERS_TIMEOUT_MS (40000) must not exceed HOOKLINE_HTTP_REQUEST_TIMEOUT_MS ' +
        '(30000, its default): the headers are part of the request',
    ]);
    expect(
      problems({ HOOKLINE_HTTP_HEADERS_TIMEOUT_MS: '5000', HOOKLINE_HTTP_REQUEST_TIMEOUT_MS: '5000' }),
    ).toEqual([]);
    expect(problems({ HOOKLINE_HTTP_REQUEST_TIMEOUT_MS: '10000' })).toEqual([]);
  });

  it('checks the history, notice and operator webhook settings, naming each problem', () => {
    const fail = (env: Record<string, string>, role: Parameters<typeof loadConfig>[1] = 'monitor') => {
      try {
        loadConfig(env, role);
        return [];
      } catch (error) {
        return (error as ConfigError).problems;
      }
    };
    expect(fail({}, 'monitor')).toEqual([
      'DATABASE_URL: is required for the monitor process',
      'HOOKLINE_SECRET_KEY: is required for the monitor process',
    ]);
    const db = { DATABASE_URL: 'postgres://u@db/hookline', HOOKLINE_SECRET_KEY: KEY };
    expect(fail({ ...db, DATABASE_URL: 'mysql://x' })).toEqual([
      'DATABASE_URL: must be a postgres:// or postgresql:// URL',
    ]);
    expect(fail({ ...db, HOOKLINE_DATABASE_SCHEMA: 'Bad-Name' })).toEqual([
      'HOOKLINE_DATABASE_SCHEMA: must be a lower-case identifier (letters, digits, _)',
    ]);
    expect(fail({ ...db, HOOKLINE_SMTP_URL: 'http://mail' })).toEqual([
      'HOOKLINE_SMTP_URL: must be an smtp:// or smtps:// URL, e.g. smtps://user:password@smtp.example.com:465',
    ]);
    expect(fail({ ...db, HOOKLINE_OPERATOR_WEBHOOK_URL: 'https://ops.example.com/hooks' })).toEqual([
      'HOOKLINE_OPERATOR_WEBHOOK_SECRET: is required with HOOKLINE_OPERATOR_WEBHOOK_URL',
    ]);
    expect(fail({ ...db, HOOKLINE_OPERATOR_WEBHOOK_SECRET: 'not-a-secret' })).toEqual([
      'HOOKLINE_OPERATOR_WEBHOOK_SECRET: must be whsec_ followed by the base64 of 32 bytes (e.g. whsec_$(openssl rand -base64 32))',
    ]);
    const secret = `whsec_${Buffer.alloc(32, 1).toString('base64')}`;
    const config = loadConfig(
      {
        ...db,
        HOOKLINE_OPERATOR_WEBHOOK_URL: 'https://ops.example.com/hooks',
        HOOKLINE_OPERATOR_WEBHOOK_SECRET: secret,
      },
      'monitor',
    );
    expect(config).toMatchObject({
      HOOKLINE_OPERATOR_WEBHOOK_SECRET: secret,
      HOOKLINE_HISTORY_RETENTION_DAYS: 30,
    });
  });

  it('parses the allow-list of networks', () => {
    const config = loadConfig(
      { HOOKLINE_SECRET_KEY: KEY, HOOKLINE_ALLOW_NETWORKS: '127.0.0.0/8,::1/128' },
      'worker',
    );
    expect(config.HOOKLINE_ALLOW_NETWORKS).toEqual(['127.0.0.0/8', '::1/128']);
  });

  it('parses the seeds of a Redis Cluster', () => {
    const config = loadConfig(
      { HOOKLINE_SECRET_KEY: KEY, REDIS_CLUSTER_NODES: ' redis-a:7000, 10.0.0.6:7001,[::1]:7002' },
      'worker',
    );
    expect(config.REDIS_CLUSTER_NODES).toEqual([
      { host: 'redis-a', port: 7000 },
      { host: '10.0.0.6', port: 7001 },
      { host: '::1', port: 7002 },
    ]);
  });

  it('refuses a seed that is not host:port', () => {
    for (const seed of ['redis-a', 'redis-a:0', 'redis-a:70000', 'redis://a:7000'])
      expect(() => loadConfig({ HOOKLINE_SECRET_KEY: KEY, REDIS_CLUSTER_NODES: seed }, 'worker')).toThrow(
        /REDIS_CLUSTER_NODES/,
      );
  });

  it('gives the credentials key as 32 bytes, or a config error that names the setting', () => {
    expect(secretKeyOf({ HOOKLINE_SECRET_KEY: KEY })).toEqual(Buffer.from(KEY, 'hex'));
    expect(() => secretKeyOf({})).toThrow(/HOOKLINE_SECRET_KEY/);
  });
});

describe('HOOKLINE_EVENT_CATALOG', () => {
  const files = (text: string) => (path: string) => {
    if (path !== '/etc/hookline/catalog.json')
      throw Object.assign(new Error('no such file'), { code: 'ENOENT' });
    return text;
  };
  const env = { HOOKLINE_SECRET_KEY: KEY, HOOKLINE_EVENT_CATALOG: '/etc/hookline/catalog.json' };

  it('is call_created alone when unset', () => {
    const config = loadConfig({ HOOKLINE_SECRET_KEY: KEY }, 'worker');
    expect(config.eventCatalog.producerKinds.map((k) => k.name)).toEqual(['call_created']);
  });

  it('adds the kinds of the file', () => {
    const text = '{"kinds":[{"name":"call_ended","fields":[{"name":"duration","type":"decimal"}]}]}';
    const config = loadConfig(env, 'worker', files(text));
    expect(config.eventCatalog.get('call_ended')?.fields).toEqual([{ name: 'duration', type: 'decimal' }]);
  });

  it('reports every problem of the file together with those of the other settings', () => {
    const text = '{"kinds":[{"name":"call_created","fields":[{"name":"x","type":"money"}]}]}';
    expect(() => loadConfig({ ...env, PORT: 'eighty' }, 'worker', files(text))).toThrow(ConfigError);
    try {
      loadConfig({ ...env, PORT: 'eighty' }, 'worker', files(text));
    } catch (error) {
      expect((error as ConfigError).problems).toEqual([
        expect.stringMatching(/^PORT: /),
        'HOOKLINE_EVENT_CATALOG (/etc/hookline/catalog.json): kinds[0] (call_created).name: is a built-in kind and cannot be redefined',
        'HOOKLINE_EVENT_CATALOG (/etc/hookline/catalog.json): kinds[0] (call_created).fields[0].type: must be one of string, decimal, timestamp',
      ]);
    }
  });

  it('names a file it cannot read', () => {
    expect(() => loadConfig({ ...env, HOOKLINE_EVENT_CATALOG: '/nope.json' }, 'worker', files(''))).toThrow(
      /HOOKLINE_EVENT_CATALOG: cannot read \/nope\.json \(ENOENT\)/,
    );
  });
});
