import type { HookView } from '@hookline/core';
import { html, type SafeHtml } from '../view/html';
import { plural } from '../view/format';
import { csrfField, layout, type Viewer } from '../view/layout';

export function deleteHookPage(viewer: Viewer, hook: HookView, held: number): SafeHtml {
  return layout(
    'Delete hook',
    viewer,
    'hooks',
    html`<div class="page-header">
        <div>
          <div class="breadcrumb"><a href="/hooks/${hook.id}">← Back to hook</a></div>
          <h1>Delete this hook?</h1>
        </div>
      </div>
      <div class="card narrow">
        <div class="card-body">
          <p>Events will no longer be sent to <strong class="url">${hook.url}</strong>.</p>
          <p>
            ${
              held > 0
                ? html`<strong>${plural(held, 'waiting event')}</strong> ${held === 1 ? 'is' : 'are'} dropped
                    and never sent. `
                : ''
            }Its
            past deliveries stay in your account's history:
            <a href="/search">Find a call</a> finds them by call id. This cannot be undone.
          </p>
          <form method="post" action="/hooks/${hook.id}/delete" class="form-actions">
            ${csrfField(viewer.csrf)}
            <button class="btn btn-danger" type="submit">Delete hook</button>
            <a class="btn btn-secondary" href="/hooks/${hook.id}">Cancel</a>
          </form>
        </div>
      </div>`,
  );
}
