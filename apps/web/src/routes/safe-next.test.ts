import { safeNext } from './auth-routes';

describe('where sign-in sends the visitor next', () => {
  it('keeps paths of this site, query and fragment included', () => {
    expect(safeNext('/hooks/hk_1?tab=log#latest')).toBe('/hooks/hk_1?tab=log#latest');
    expect(safeNext('/')).toBe('/');
  });

  it('refuses anything that leads off-site or that a browser would rewrite', () => {
    for (const next of [
      '//evil.example',
      '/\\evil.example',
      '/\t/evil.example',
      '/\n/evil.example',
      '/\r\nLocation: http://evil.example',
      ' /hooks',
      '/hooks\u0000',
      'https://evil.example/',
      'hooks',
      '',
    ])
      expect([next, safeNext(next)]).toEqual([next, undefined]);
  });

  it('never sends back to the sign-in page itself', () => {
    expect(safeNext('/login?next=/hooks')).toBeUndefined();
    expect(safeNext('/hooks/../login')).toBeUndefined();
  });
});
