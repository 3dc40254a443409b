import { ConfigError, loadConfig } from './load-config';

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
