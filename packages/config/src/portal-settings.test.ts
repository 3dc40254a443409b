import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { contrastWithWhite } from './brand';
import { loadConfig, type ConfigError } from './load-config';

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

  it.each([
    'https://portal.example.com/app',
    '*.example.com',
    "'self'",
    'ftp://x.example.com',
    // URL parsing lets these characters into a host; in the CSP header they would end frame-ancestors and
    // start a directive of their own.
    'https://portal.example.com;script-src',
    "https://portal.example.com'",
    'https://por$tal.example.com',
  ])('refuses %s at start, naming the setting', (value) => {
    expect(() => load({ HOOKLINE_FRAME_ANCESTORS: `https://ok.example.com, ${value}` })).toThrow(
      /HOOKLINE_FRAME_ANCESTORS \(entry 2\): each entry must be an origin such as https:\/\/portal\.example\.com/,
    );
  });
  // A sign-in link's session inside the frame lives in a partitioned cookie, which must be Secure: a browser on
  // plain http to any other host drops it, so the link would be spent and the customer left signed out.
  it('refuses embedding with a public address on plain http that is not this machine', () => {
    expect(() =>
      load({
        HOOKLINE_FRAME_ANCESTORS: 'https://portal.example.com',
        HOOKLINE_PUBLIC_URL: 'http://hooks.example.com',
      }),
    ).toThrow(
      'HOOKLINE_PUBLIC_URL: must be https:// with HOOKLINE_FRAME_ANCESTORS (http://hooks.example.com: ' +
        'browsers drop the Secure cookie of a session inside a frame on plain http, except on localhost)',
    );
  });

  it.each([
    'https://hooks.example.com',
    'http://localhost:8080',
    'http://127.0.0.1:8080',
    'http://[::1]:8080',
  ])('embeds with the public address %s, and with none', (url) => {
    const ancestors = { HOOKLINE_FRAME_ANCESTORS: 'https://portal.example.com' };
    expect(load({ ...ancestors, HOOKLINE_PUBLIC_URL: url }).HOOKLINE_FRAME_ANCESTORS).toHaveLength(1);
    expect(load(ancestors).HOOKLINE_FRAME_ANCESTORS).toHaveLength(1);
    expect(load({ HOOKLINE_PUBLIC_URL: 'http://hooks.example.com' }).HOOKLINE_FRAME_ANCESTORS).toEqual([]);
  });
});

describe('the operator’s brand settings', () => {
  const dir = mkdtempSync(join(tmpdir(), 'brand-'));
  const png = join(dir, 'logo.png');
  const svg = join(dir, 'logo.svg');
  const txt = join(dir, 'logo.txt');
  const whole = onePixelPng();
  writeFileSync(png, whole);
  const cut = join(dir, 'cut.png');
  writeFileSync(cut, whole.subarray(0, 16));
  const garbage = join(dir, 'garbage.png');
  writeFileSync(
    garbage,
    Buffer.concat([whole.subarray(0, 8), Buffer.from('not an image at all, only text')]),
  );
  const tampered = join(dir, 'tampered.png');
  const flipped = Buffer.from(whole);
  flipped[20] = flipped[20]! ^ 0xff; // inside IHDR's data: its checksum no longer matches
  writeFileSync(tampered, flipped);
  writeFileSync(
    svg,
    '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>',
  );
  writeFileSync(txt, 'hello');

  it('measures contrast with white as WCAG does', () => {
    expect(contrastWithWhite('#000000')).toBeCloseTo(21, 5);
    expect(contrastWithWhite('#ffffff')).toBeCloseTo(1, 5);
    expect(contrastWithWhite('#767676')).toBeGreaterThan(4.5); // the lightest grey that passes AA
    expect(contrastWithWhite('#777777')).toBeLessThan(4.5);
  });

  it('takes a colour that reaches 4.5:1 with white, and refuses one that does not, naming the setting', () => {
    expect(load({ HOOKLINE_BRAND_COLOR: '#0b5394' }).HOOKLINE_BRAND_COLOR).toBe('#0b5394');
    expect(() => load({ HOOKLINE_BRAND_COLOR: '#ffcc00' })).toThrow(
      /HOOKLINE_BRAND_COLOR: contrasts 1\.\d\d:1 with white; it must reach 4\.5:1 \(WCAG AA\) both as text on the white page and under the white text of buttons/,
    );
    expect(() => load({ HOOKLINE_BRAND_COLOR: 'blue' })).toThrow(
      /HOOKLINE_BRAND_COLOR: must be a colour as #rrggbb/,
    );
    // Without its '#', a colour is refused for its form alone: no contrast figure of a value that is no colour.
    const problems = (value: string) => {
      try {
        load({ HOOKLINE_BRAND_COLOR: value });
      } catch (error) {
        return (error as ConfigError).problems;
      }
      return [];
    };
    expect(problems('ffcc00')).toEqual(['HOOKLINE_BRAND_COLOR: must be a colour as #rrggbb']);
  });

  it('reads a PNG or SVG logo at start, and names a file that is neither or cannot be read', () => {
    expect(load({ HOOKLINE_BRAND_LOGO: png }).brandLogo?.type).toBe('image/png');
    expect(load({ HOOKLINE_BRAND_LOGO: svg }).brandLogo?.type).toBe('image/svg+xml');
    expect(() => load({ HOOKLINE_BRAND_LOGO: txt })).toThrow(
      /HOOKLINE_BRAND_LOGO: .*logo\.txt is neither a PNG nor an SVG file/,
    );
    // A file that only starts as a PNG would show as a broken image on every page.
    expect(() => load({ HOOKLINE_BRAND_LOGO: cut })).toThrow(
      /HOOKLINE_BRAND_LOGO: .*cut\.png starts as a PNG file but is not a whole one: the IHDR chunk at byte 8 is cut short/,
    );
    expect(() => load({ HOOKLINE_BRAND_LOGO: garbage })).toThrow(
      /HOOKLINE_BRAND_LOGO: .*garbage\.png starts as a PNG file but is not a whole one/,
    );
    expect(() => load({ HOOKLINE_BRAND_LOGO: tampered })).toThrow(
      /tampered\.png starts as a PNG file but is not a whole one: the IHDR chunk at byte 8 fails its checksum/,
    );
    expect(() => load({ HOOKLINE_BRAND_LOGO: join(dir, 'nope.png') })).toThrow(
      /HOOKLINE_BRAND_LOGO: cannot read .*\(ENOENT\)/,
    );
  });

  it('takes a support URL (https or mailto) and a name', () => {
    const config = load({
      HOOKLINE_BRAND_NAME: 'Voxtel Connect',
      HOOKLINE_BRAND_SUPPORT_URL: 'mailto:help@voxtel.test',
    });
    expect([config.HOOKLINE_BRAND_NAME, config.HOOKLINE_BRAND_SUPPORT_URL]).toEqual([
      'Voxtel Connect',
      'mailto:help@voxtel.test',
    ]);
    expect(() => load({ HOOKLINE_BRAND_SUPPORT_URL: 'javascript:alert(1)' })).toThrow(
      /HOOKLINE_BRAND_SUPPORT_URL/,
    );
  });

  it.each([
    'https://help.example/\r\nBcc: x@example.com',
    'https://help.example/\tfaq',
    'mailto:help@x.test\u0000',
  ])('refuses a support URL with a control character (%j) at start, naming the setting', (url) => {
    expect(() => load({ HOOKLINE_BRAND_SUPPORT_URL: url })).toThrow(
      'HOOKLINE_BRAND_SUPPORT_URL: must not contain tabs, line breaks or control characters',
    );
  });
});

/** A 1×1 PNG, built chunk by chunk as the format says. */
function onePixelPng(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typed));
    return Buffer.concat([length, typed, crc]);
  };
  const header = Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0]);
  return Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.from([0, 11, 83, 148, 255]))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
