import { ConfigError, loadConfig, loadDataDir } from './load-config';

// Values that would pass a loose check but fail later, in a request or at listen: refused at start instead,
// each naming its setting.
const KEY = 'a'.repeat(64);

function problemsWith(env: Record<string, string>): readonly string[] {
  try {
    loadConfig({ HOOKLINE_SECRET_KEY: KEY, ...env }, 'worker');
    return [];
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.problems;
  }
}

describe('HOOKLINE_EVENT_TYPE_HEADER', () => {
  it.each([
    'Authorization',
    'content-type',
    'Content-Length',
    'Host',
    'User-Agent',
    'webhook-id',
    'Webhook-Timestamp',
    'webhook-signature',
    'traceparent',
    'tracestate',
    'Connection',
    'Transfer-Encoding',
  ])('refuses %s, a header hookline sets on every delivery', (name) => {
    expect(problemsWith({ HOOKLINE_EVENT_TYPE_HEADER: name })).toEqual([
      expect.stringMatching(
        /^HOOKLINE_EVENT_TYPE_HEADER: is a header hookline sets itself on every delivery/,
      ),
    ]);
  });

  it('takes a name of its own', () => {
    const config = loadConfig(
      { HOOKLINE_SECRET_KEY: KEY, HOOKLINE_EVENT_TYPE_HEADER: 'X-Event-Kind' },
      'worker',
    );
    expect(config.HOOKLINE_EVENT_TYPE_HEADER).toBe('X-Event-Kind');
  });
});

describe('credentials, which must be sendable as given', () => {
  it('refuses an admin user with ":", with which no admin could ever sign in', () => {
    expect(problemsWith({ HOOKLINE_ADMIN_USER: 'ops:admin' })).toEqual([
      'HOOKLINE_ADMIN_USER: must not contain ":" (Basic authentication ends the user at the first ":")',
    ]);
  });

  it.each([
    ['HOOKLINE_API_KEY', 'operator key with spaces'],
    ['HOOKLINE_API_KEY', 'operator-key-für-alle'],
    ['HOOKLINE_API_KEY', 'operator-key-\t-tabbed'],
    ['HOOKLINE_ADMIN_PASSWORD', 'pässwörd-of-mine'],
    ['HOOKLINE_ADMIN_PASSWORD', 'password-line\nbreak'],
    ['HOOKLINE_ADMIN_USER', 'opérateur'],
    ['HOOKLINE_ADMIN_USER', 'ops\u0000'],
  ])('refuses %s %j, which a client cannot send as given', (name, value) => {
    expect(problemsWith({ [name]: value })).toEqual([
      expect.stringMatching(new RegExp(`^${name}: must be visible ASCII`)),
    ]);
  });

  it('takes any printable ASCII for Basic credentials, spaces and ":" in the password included', () => {
    const config = loadConfig(
      {
        HOOKLINE_SECRET_KEY: KEY,
        HOOKLINE_API_KEY: 'hl_Zm9v.YmFy~+/=!#$%&*',
        HOOKLINE_ADMIN_USER: 'night ops',
        HOOKLINE_ADMIN_PASSWORD: 'correct horse: battery "staple"',
      },
      'worker',
    );
    expect(config).toMatchObject({
      HOOKLINE_API_KEY: 'hl_Zm9v.YmFy~+/=!#$%&*',
      HOOKLINE_ADMIN_USER: 'night ops',
      HOOKLINE_ADMIN_PASSWORD: 'correct horse: battery "staple"',
    });
  });
});

describe('numeric settings', () => {
  it.each([
    ['PORT', '0x1F90'],
    ['PORT', '8080.0'],
    ['PORT', ' 8080'],
    ['PORT', '+8080'],
    ['HOOKLINE_DELIVERY_TIMEOUT_MS', '1e4'],
    ['HOOKLINE_DELIVERY_TIMEOUT_MS', '0b11111111'],
    ['HOOKLINE_HOLD_MAX', 'Infinity'],
  ])('refuse %s=%s: only decimal digits are read as a number', (name, value) => {
    expect(problemsWith({ [name]: value })).toEqual([
      expect.stringMatching(
        new RegExp(`^${name}: must be a whole number from \\d+ to \\d+ \\(decimal digits only\\)$`),
      ),
    ]);
  });

  it('say the range when out of it, and read plain digits', () => {
    expect(problemsWith({ PORT: '65536' })).toEqual([
      'PORT: must be a whole number from 0 to 65535 (decimal digits only)',
    ]);
    expect(problemsWith({ HOOKLINE_DELIVERY_TIMEOUT_MS: '-1' })).toEqual([
      'HOOKLINE_DELIVERY_TIMEOUT_MS: must be a whole number from 100 to 120000 (decimal digits only)',
    ]);
    const config = loadConfig(
      { HOOKLINE_SECRET_KEY: KEY, PORT: '8080', HOOKLINE_DELIVERY_TIMEOUT_MS: '010000' },
      'worker',
    );
    expect(config.PORT).toBe(8080);
    expect(config.HOOKLINE_DELIVERY_TIMEOUT_MS).toBe(10000);
  });
});

// HOST for the HTTP tier; HOOKLINE_METRICS_HOST for the metrics and probes of workers and monitors.
describe.each(['HOST', 'HOOKLINE_METRICS_HOST'] as const)('%s', (setting) => {
  it('listens on every IPv4 address unless given one', () => {
    expect(loadConfig({ HOOKLINE_SECRET_KEY: KEY }, 'worker')[setting]).toBe('0.0.0.0');
  });

  it.each(['0.0.0.0', '::', '127.0.0.1', 'fd00::5', 'localhost', 'api.internal', 'hookline_http_1'])(
    'takes %s, an address or a host name',
    (host) => {
      expect(loadConfig({ HOOKLINE_SECRET_KEY: KEY, [setting]: host }, 'worker')[setting]).toBe(host);
    },
  );

  it.each(['http://0.0.0.0', '0.0.0.0:8080', '[::1]', 'my host', 'host/path', '-dash.example'])(
    'refuses %s, naming the setting',
    (host) => {
      expect(problemsWith({ [setting]: host })).toEqual([
        `${setting}: must be an IP address of this machine (0.0.0.0 or :: for all of them, 127.0.0.1 for this ` +
          'machine only) or a host name, without scheme, port or brackets',
      ]);
    },
  );
});

describe('HOOKLINE_EGRESS_PROXY', () => {
  const SHAPE = /^HOOKLINE_EGRESS_PROXY: must be http:\/\/\[user:password@\]host:port/;
  const CREDENTIALS =
    'user and password must be percent-encoded: %25 for %, %2F for /, %3F for ?, %23 for #, %40 for @';

  const NO_PORT = '; the port is missing (without one it would quietly be 80)';
  const AFTER_PORT = '; nothing may follow the port (a path, a query or a fragment was given)';
  const NO_HOST = '; the host is missing (http://host:port, e.g. http://proxy.internal:3128)';
  it.each([
    ['no port (would quietly mean 80)', 'http://proxy.internal', NO_PORT],
    ['no port, with credentials', 'http://ops:Secr3tPass@proxy.internal', NO_PORT],
    ['no host, with credentials', 'http://user:pw@:3128', NO_HOST],
    ['no host', 'http://:3128', NO_HOST],
    ['nothing after the scheme', 'http://', NO_HOST],
    ['port 0', 'http://proxy.internal:0', '; the port must be from 1 to 65535'],
    ['port 70000', 'http://proxy.internal:70000', '; the port must be from 1 to 65535'],
    ['a fragment', 'http://proxy.internal:3128#egress', AFTER_PORT],
    ['a path', 'http://proxy.internal:3128/path', AFTER_PORT],
    ['a query', 'http://proxy.internal:3128?x=1', AFTER_PORT],
    [
      'https',
      'https://proxy.internal:3128',
      "; not https://: hookline speaks plain HTTP to the proxy, and each request's TLS runs inside its CONNECT tunnel",
    ],
    [
      'another scheme',
      'socks5://proxy.internal:1080',
      "; not socks5://: hookline speaks plain HTTP to the proxy, and each request's TLS runs inside its CONNECT tunnel",
    ],
    ['no scheme', 'proxy.internal:3128', '; it does not start with http://'],
    ['garbage', 'garbage', '; it does not start with http://'],
  ])('refuses %s, naming the setting and what is wrong', (_, value, what) => {
    const problems = problemsWith({ HOOKLINE_EGRESS_PROXY: value });
    expect(problems).toEqual([expect.stringMatching(SHAPE)]);
    expect(problems[0]!.endsWith(what)).toBe(true);
  });

  it('refuses a password that is not valid percent-encoding, naming the setting and not the password', () => {
    const problems = problemsWith({ HOOKLINE_EGRESS_PROXY: 'http://ops:p%zzSecr3t@proxy.internal:3128' });
    expect(problems).toEqual([`HOOKLINE_EGRESS_PROXY: ${CREDENTIALS}`]);
    expect(problems.join()).not.toContain('Secr3t');
  });

  it.each([
    ['/', 'http://ops:pa/Secr3t@proxy.internal:3128'],
    ['?', 'http://ops:pa?Secr3t@proxy.internal:3128'],
    ['#', 'http://ops:pa#Secr3t@proxy.internal:3128'],
    ['/ and a raw @', 'http://ops:p@a/Secr3t@proxy.internal:3128'],
  ])('refuses a raw %s in the password as unencoded credentials, not as a bad shape', (_, value) => {
    const problems = problemsWith({ HOOKLINE_EGRESS_PROXY: value });
    expect(problems).toEqual([`HOOKLINE_EGRESS_PROXY: ${CREDENTIALS}`]);
    expect(problems.join()).not.toContain('Secr3t');
  });

  it('refuses a user with ":" (written %3A), which Basic authentication would cut there, not naming the password', () => {
    const problems = problemsWith({ HOOKLINE_EGRESS_PROXY: 'http://us%3Aer:Secr3tPass@127.0.0.1:3128' });
    expect(problems).toEqual([
      'HOOKLINE_EGRESS_PROXY: the proxy user must not contain ":" (%3A): Basic authentication ends the user at the first ":"',
    ]);
    expect(problems.join()).not.toContain('Secr3t');
  });

  it.each([
    'http://proxy.internal:3128',
    'http://proxy.internal:3128/',
    'http://ops:s3cr%40t@10.0.0.5:8080',
    'http://ops:p@ss@proxy.internal:3128',
    'http://ops:p:ss@proxy.internal:3128',
    'http://[fd00::5]:3128',
    'http://proxy.internal:80',
  ])('takes %s', (value) => {
    expect(
      loadConfig({ HOOKLINE_SECRET_KEY: KEY, HOOKLINE_EGRESS_PROXY: value }, 'worker').HOOKLINE_EGRESS_PROXY,
    ).toBe(value);
  });
});

describe('HOOKLINE_SMTP_FROM', () => {
  const MESSAGE = /^HOOKLINE_SMTP_FROM: must be an e-mail address, alone or as Name <address>/;

  // The mail library reads such a value as a name without an address: notices went out with an empty
  // MAIL FROM and no From header, counted as sent.
  it.each([
    'not an address',
    'hooks@',
    '@acme.example',
    'Acme <not-an-address>',
    'Acme, Inc <hooks@acme.example>',
    'hooks@acme.example, ops@acme.example',
    'Acme\u0001 <hooks@acme.example>',
  ])('refuses %j, naming the setting', (value) => {
    expect(problemsWith({ HOOKLINE_SMTP_FROM: value })).toEqual([expect.stringMatching(MESSAGE)]);
  });

  it.each([
    'hooks@acme.example',
    'Acme webhooks <webhooks@acme.example>',
    '"Acme, Inc." <webhooks@acme.example>',
    'Zoë Hooks <webhooks@localhost>',
    '<webhooks@acme.example>',
  ])('takes %j', (value) => {
    expect(
      loadConfig({ HOOKLINE_SECRET_KEY: KEY, HOOKLINE_SMTP_FROM: value }, 'worker').HOOKLINE_SMTP_FROM,
    ).toBe(value);
  });
});

describe('a setting of whitespace alone', () => {
  // Used as given, these made an admin user or a password of spaces, or (HOOKLINE_DATA_DIR) a directory named " ".
  it.each([
    ['HOOKLINE_ADMIN_USER', '   '],
    ['HOOKLINE_ADMIN_PASSWORD', ' '.repeat(12)],
    ['REDIS_SENTINEL_PASSWORD', ' '],
    ['HOOKLINE_BRAND_NAME', '   '],
    ['HOOKLINE_SMTP_FROM', '   '],
    ['HOOKLINE_DATA_DIR', ' '],
    ['HOOKLINE_QUEUE_PREFIX', '\t'],
  ])('is refused: %s=%j, in plain words naming the setting', (name, value) => {
    expect(problemsWith({ [name]: value })).toEqual([
      `${name}: is only whitespace; give it a value, or leave it empty or unset for its default`,
    ]);
  });

  it('is refused for the data directory before pnpm start makes it', () => {
    expect(() => loadDataDir({ HOOKLINE_DATA_DIR: ' ' })).toThrow(
      'HOOKLINE_DATA_DIR: is only whitespace; give it a value, or leave it empty or unset for its default',
    );
    expect(loadDataDir({ HOOKLINE_DATA_DIR: '' })).toBe('.data');
  });

  it('is no problem for a value with spaces inside it', () => {
    const config = loadConfig({ HOOKLINE_SECRET_KEY: KEY, HOOKLINE_BRAND_NAME: 'Voxtel Connect' }, 'worker');
    expect(config.HOOKLINE_BRAND_NAME).toBe('Voxtel Connect');
  });
});

describe('HOOKLINE_BRAND_NAME', () => {
  // It goes into page titles, e-mail From and Subject lines and the User-Agent of deliveries.
  it.each(['Bad\u0001Name', 'Voxtel\tConnect', 'Voxtel\nConnect', 'Voxtel\u007f', 'Voxtel\u0085Connect'])(
    'refuses %j, with a control character, naming the setting',
    (value) => {
      expect(problemsWith({ HOOKLINE_BRAND_NAME: value })).toEqual([
        'HOOKLINE_BRAND_NAME: must not contain tabs, line breaks or control characters',
      ]);
    },
  );

  it('takes a name of letters, spaces and punctuation, any script', () => {
    for (const name of ['Voxtel Connect', 'Acme, Inc. "Hooks"', 'Zoë & Søn'])
      expect(
        loadConfig({ HOOKLINE_SECRET_KEY: KEY, HOOKLINE_BRAND_NAME: name }, 'worker').HOOKLINE_BRAND_NAME,
      ).toBe(name);
  });
});

describe('comma-separated lists', () => {
  // A repeat is a slip; two spellings of one entry may hide the one that was meant.
  it.each([
    ['HOOKLINE_ALLOW_NETWORKS', '10.0.0.0/8,10.0.0.0/8', '10.0.0.0/8'],
    ['HOOKLINE_ALLOW_NETWORKS', 'fd00::/8, FD00:0::/8', 'fd00::/8'],
    ['HOOKLINE_TRUST_PROXY', '10.0.0.5, 10.0.0.5/32', '10.0.0.5/32'],
    [
      'HOOKLINE_FRAME_ANCESTORS',
      'https://portal.example.com,https://portal.example.com/',
      'https://portal.example.com',
    ],
    ['REDIS_CLUSTER_NODES', '10.0.1.1:6379,10.0.1.1:6379', '10.0.1.1:6379'],
    ['REDIS_SENTINELS', 's1:26379,S1:26379', 's1:26379'],
  ])('refuse a repeated entry in %s=%s, naming it', (name, value, shown) => {
    expect(problemsWith({ [name]: value })).toEqual([
      `${name} (entry 2): ${shown} is listed already (entry 1); list each once`,
    ]);
  });

  it.each([
    ['HOOKLINE_ALLOW_NETWORKS', '10.0.0.1/8', '10.0.0.0/8', '10.0.0.1'],
    ['HOOKLINE_TRUST_PROXY', '192.168.1.7/24', '192.168.1.0/24', '192.168.1.7'],
    ['HOOKLINE_ALLOW_NETWORKS', 'fd00::1/8', 'fd00::/8', 'fd00::1'],
  ])('refuse a CIDR with host bits set, %s=%s, naming the network meant', (name, value, network, address) => {
    expect(problemsWith({ [name]: value })).toEqual([
      `${name} (entry 1): ${value} has bits set past its prefix length: write the network, ${network}, or the ` +
        `one address, ${address}`,
    ]);
  });

  it('take distinct entries, networks and single addresses', () => {
    const config = loadConfig(
      {
        HOOKLINE_SECRET_KEY: KEY,
        HOOKLINE_ALLOW_NETWORKS: '10.0.0.0/8, 10.1.2.3, fd00::/8, 127.0.0.1/32',
        REDIS_SENTINELS: 's1:26379,s2:26379,[::1]:26379',
      },
      'worker',
    );
    expect(config.HOOKLINE_ALLOW_NETWORKS).toEqual(['10.0.0.0/8', '10.1.2.3', 'fd00::/8', '127.0.0.1/32']);
    expect(config.REDIS_SENTINELS).toHaveLength(3);
  });
});
