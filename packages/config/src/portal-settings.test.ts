import { loadConfig } from './load-config';

const KEY = 'a'.repeat(64);
const load = (env: Record<string, string>) => loadConfig({ HOOKLINE_SECRET_KEY: KEY, ...env }, 'worker');

describe('the operator’s settings for embedding (product.md §16)', () => {
  it('takes HOOKLINE_FRAME_ANCESTORS as a list of origins, none by default', () => {
    expect(load({}).HOOKLINE_FRAME_ANCESTORS).toEqual([]);
    expect(
      load({ HOOKLINE_FRAME_ANCESTORS: 'https://portal.example.com, http://127.0.0.2:8080/' })
        .HOOKLINE_FRAME_ANCESTORS,
    ).toEqual(['https://portal.example.com', 'http://127.0.0.2:8080']);
  });

  it.each(['https://portal.example.com/app', '*.example.com', "'self'", 'ftp://x.example.com'])(
    'refuses %s at start, naming the setting',
    (value) => {
      expect(() => load({ HOOKLINE_FRAME_ANCESTORS: value })).toThrow(
        /HOOKLINE_FRAME_ANCESTORS.*each entry must be an origin such as https:\/\/portal\.example\.com/,
      );
    },
  );
});
