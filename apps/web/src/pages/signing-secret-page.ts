import type { HookWithSecret } from '@hookline/core';
import { html, joinHtml, type SafeHtml } from '../view/html';
import { layout, type Viewer } from '../view/layout';

// Receivers verify with the Standard Webhooks libraries as they are. The Node one parses the body as JSON
// unless told not to, which a form hook must; the Python lines need no library at all.
const nodeSnippet = (form: boolean) =>
  [
    "import { Webhook } from 'standardwebhooks'; // or: import { Webhook } from 'svix'",
    '',
    'const wh = new Webhook(process.env.WEBHOOK_SIGNING_SECRET);',
    '// rawBody: the request body exactly as received, before any parsing',
    `wh.verify(rawBody, req.headers${form ? ', { jsonParse: false }' : ''}); // throws when it is not ours`,
  ].join('\n');

const PYTHON_SNIPPET = [
  'import base64, hashlib, hmac, time',
  '',
  'def verify(secret: str, headers, body: bytes) -> None:',
  '    key = base64.b64decode(secret.removeprefix("whsec_"))',
  '    msg_id, ts = headers["webhook-id"], headers["webhook-timestamp"]',
  '    if abs(time.time() - int(ts)) > 300:',
  '        raise ValueError("stale timestamp")',
  '    mac = hmac.new(key, f"{msg_id}.{ts}.".encode() + body, hashlib.sha256).digest()',
  '    expected = "v1," + base64.b64encode(mac).decode()',
  '    if not any(hmac.compare_digest(expected, s) for s in headers["webhook-signature"].split()):',
  '        raise ValueError("bad signature")',
].join('\n');

const code = (text: string, label: string) =>
  html`<pre class="snippet" aria-label="${label}"><code>${joinHtml(
    text.split('\n').map((line) => html`${line}`),
    '\n',
  )}</code></pre>`;

/**
 * The one time a signing secret is shown: right after it was made (creation, signing turned on, rotation).
 * Shown by the GET its POST redirected to, once (the secret waits in the session for that GET only).
 */
export function signingSecretPage(viewer: Viewer, hook: HookWithSecret, rotated: boolean): SafeHtml {
  const secret = hook.signing_secret ?? '';
  return layout(
    'Signing secret',
    viewer,
    'hooks',
    html`<div class="page-header">
        <div>
          <div class="breadcrumb"><a href="/hooks/${hook.id}">← ${hook.description ?? 'Hook'}</a></div>
          <h1>Signing secret</h1>
          <p class="sub url">${hook.url}</p>
        </div>
      </div>
      <div class="stack">
        <div class="alert alert-warning" role="status">
          <p>
            <strong>Copy this secret now.</strong> It is shown only this once; we keep it encrypted and never
            show it again.
            ${
              rotated
                ? 'For the next 24 hours every request carries the signatures of both the new and the previous secret, so switch your receiver to the new one within that time.'
                : ''
            }
          </p>
        </div>
        <section class="card" aria-labelledby="secret-title">
          <div class="card-header"><h2 id="secret-title">Secret</h2></div>
          <div class="card-body">
            <div class="secret-row">
              <input
                id="signing-secret"
                class="mono"
                type="text"
                readonly
                value="${secret}"
                aria-label="Signing secret"
                data-secret
              />
              <button class="btn btn-primary" type="button" data-copy="#signing-secret">Copy</button>
            </div>
            <p class="hint">
              Every request then carries <code>webhook-id</code>, <code>webhook-timestamp</code> and
              <code>webhook-signature</code> (Standard Webhooks v1), beside its Authorization header.
            </p>
          </div>
        </section>
        <section class="card" aria-labelledby="verify-title">
          <div class="card-header">
            <div>
              <h2 id="verify-title">Verify in your receiver</h2>
              <p>Check the signature over the raw body before you trust a request.</p>
            </div>
          </div>
          <div class="card-body">
            <h3>Node.js</h3>
            ${code(nodeSnippet(hook.format === 'form'), 'Node.js verification')}
            <h3>Python</h3>
            ${code(PYTHON_SNIPPET, 'Python verification')}
          </div>
        </section>
        <div class="form-actions">
          <a class="btn btn-primary" href="/hooks/${hook.id}">I have stored it — go to the hook</a>
        </div>
      </div>`,
  );
}
