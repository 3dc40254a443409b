import { html, joinHtml, trusted } from './html';

describe('html template', () => {
  it('escapes every interpolated value, in text and in attributes', () => {
    const url = 'https://x.example/"><script>alert(1)</script>';
    const out = html`<a href="${url}">${"Tom & Jerry's <b>"}</a>`.value;
    expect(out).toBe(
      '<a href="https://x.example/&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;">Tom &amp; Jerry&#39;s &lt;b&gt;</a>',
    );
  });

  it('nests templates and arrays without escaping them twice; false, null and undefined render as nothing', () => {
    // An alias, so the formatter leaves the whitespace of this template alone.
    const t = html;
    const items = ['a<', 'b'].map((x) => t`<li>${x}</li>`);
    expect(t`<ul>${items}</ul>${false}${null}${undefined}${0}`.value).toBe(
      '<ul><li>a&lt;</li><li>b</li></ul>0',
    );
  });

  it('passes trusted markup through and joins with an escaped separator', () => {
    expect(html`${trusted('<svg/>')}`.value).toBe('<svg/>');
    expect(joinHtml([html`a`, html`<b>${'<'}</b>`], '\n&').value).toBe('a\n&amp;<b>&lt;</b>');
  });
});
