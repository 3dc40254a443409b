import { keptResponseHeaders, MAX_RESPONSE_HEADERS, RESPONSE_HEADER_BYTES } from './response-headers';

describe('the response headers a record keeps', () => {
  it('keeps names lower-case in order, joins repeated headers and masks cookie values', () => {
    expect(
      keptResponseHeaders({
        'Content-Type': 'text/plain',
        via: ['1.1 a', '1.1 b'],
        'set-cookie': ['sid=s3cr3t; Secure', 'bare'],
        gone: undefined,
      }),
    ).toEqual({
      kept: { 'content-type': 'text/plain', via: '1.1 a, 1.1 b', 'set-cookie': 'sid=••••, bare=••••' },
      dropped: 0,
    });
  });

  it('cuts a long value and says how long it was', () => {
    const { kept } = keptResponseHeaders({ link: 'l'.repeat(1000) });
    expect(kept['link']).toBe(`${'l'.repeat(256)}… (cut: 1000 characters in all)`);
  });

  it('keeps the first headers within the count and size bounds and counts the rest', () => {
    const many = Object.fromEntries(Array.from({ length: 35 }, (_, i) => [`h${i}`, 'v']));
    const byCount = keptResponseHeaders(many);
    expect(Object.keys(byCount.kept)).toHaveLength(MAX_RESPONSE_HEADERS);
    expect(byCount.dropped).toBe(5);

    // 20 headers of ~250 characters: the 4 KiB budget ends the list, and nothing after the first miss is kept.
    const big = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`b${i}`, 'v'.repeat(250)]));
    const bySize = keptResponseHeaders({ ...big, small: '1' });
    const size = Object.entries(bySize.kept).reduce((n, [k, v]) => n + k.length + v.length, 0);
    expect(size).toBeLessThanOrEqual(RESPONSE_HEADER_BYTES);
    expect(Object.keys(bySize.kept)).toHaveLength(16);
    expect(bySize.kept['small']).toBeUndefined();
    expect(bySize.dropped).toBe(5);
  });
});
