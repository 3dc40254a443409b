import { parseEgressProxy } from './egress-proxy';

const basic = (pair: string) => `Basic ${Buffer.from(pair, 'utf8').toString('base64')}`;

// The credentials the proxy is asked with (RFC 7617), as the URL standard reads the setting's user-info.
describe('the egress proxy setting', () => {
  it.each([
    ['percent-encoded', 'http://ops:p%40ss%3Aw%25rd@proxy.internal:3128'],
    // The user-info ends at the last @ and splits at the first :, so raw ones in a password read as meant.
    ['with a raw @ and : in the password', 'http://ops:p@ss:w%25rd@proxy.internal:3128'],
  ])('decodes a password %s', (_, text) => {
    expect(parseEgressProxy(text)).toEqual({
      host: 'proxy.internal',
      port: 3128,
      authorization: basic('ops:p@ss:w%rd'),
      shown: 'proxy.internal:3128',
    });
  });

  it('decodes an @ in the user name, encoded or raw', () => {
    const expected = basic('ops@corp:s3cret');
    expect(parseEgressProxy('http://ops%40corp:s3cret@[fd00::5]:8080').authorization).toBe(expected);
    expect(parseEgressProxy('http://ops@corp:s3cret@[fd00::5]:8080')).toMatchObject({
      host: 'fd00::5',
      port: 8080,
      authorization: expected,
      shown: '[fd00::5]:8080',
    });
  });

  it('asks without credentials when the URL has none', () => {
    expect(parseEgressProxy('http://10.0.0.5:3128/')).toEqual({
      host: '10.0.0.5',
      port: 3128,
      shown: '10.0.0.5:3128',
    });
  });
});
