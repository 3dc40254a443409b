import { html, type SafeHtml } from '../view/html';
import { time } from '../view/format';
import type { Viewer } from '../view/layout';
import { errorPage } from './error-page';

/** What is known of a hook's deletion: when and by whom, while the account's activity feed still holds it. */
export interface HookDeletion {
  readonly at?: string;
  /** The feed's actor: `customer:…`, `portal:…`, `operator`, `admin:<user>`. */
  readonly actor?: string;
}

// The Activity page's words for who acted (audit-words.ts), from the feed's actor ids.
function actorWords(actor: string): string | undefined {
  if (actor.startsWith('customer:')) return 'you';
  if (actor.startsWith('portal:')) return 'you, from your provider’s site';
  if (actor === 'operator') return 'your provider';
  if (actor.startsWith('admin:')) return `support (${actor.slice('admin:'.length)})`;
  return undefined;
}

// The heading says it was deleted; the message says when and by whom, as far as the feed still tells.
function deletedWhen({ at, actor }: HookDeletion): SafeHtml {
  const who = actor === undefined ? undefined : actorWords(actor);
  if (!at && !who) return html``;
  return html`It was deleted${who ? ` by ${who}` : ''}${at ? html` on ${time(at)}` : ''}. `;
}

/**
 * A deleted hook's pages (410): it was there, and is gone for good, which a generic "nothing here" did not say.
 * Its deliveries stay in the account's history, found by call.
 */
export function hookGonePage(viewer: Viewer, deletion: HookDeletion): SafeHtml {
  return errorPage(
    viewer,
    {
      status: 410,
      title: 'This hook was deleted',
      message: html`${deletedWhen(deletion)}Its settings are gone and no event is sent to it any more; the
        deliveries it made can still be found with <a href="/search">Find a call</a>.`,
      action: { href: '/', label: 'Go to your hooks' },
    },
    viewer.brand,
  );
}
