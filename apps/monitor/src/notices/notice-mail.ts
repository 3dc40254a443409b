import { failureInWords, isAdminPause, plainWords, utcInWords, type HookView } from '@hookline/core';
import type { Notice, NoticeFailure } from '@hookline/suspension';

/** An e-mail as a customer reads it: plain text and the same in HTML. */
export interface NoticeMail {
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

/** The operator's brand in e-mails (HOOKLINE_BRAND_*): the name customers know, and where they get help. */
export interface MailBrand {
  readonly name: string;
  readonly supportUrl?: string;
  /** An absolute URL of the logo, served by the website (HOOKLINE_PUBLIC_URL + /brand-logo). */
  readonly logoUrl?: string;
}

const DEFAULT_MAIL_BRAND: MailBrand = { name: 'hookline' };

type MailedKind = Exclude<Notice['kind'], 'hook.stuck'>;

const HEADLINE: Record<MailedKind, string> = {
  'hook.failing': 'is failing',
  'hook.suspended': 'was suspended',
  'hook.enabled': 'was re-enabled',
};

const NEXT: Record<MailedKind, string> = {
  'hook.failing':
    'Deliveries go on for now. If the endpoint keeps failing, the hook is suspended: nothing is sent ' +
    'until someone re-enables it, and new events are held meanwhile.',
  'hook.suspended':
    'Nothing is sent to this endpoint until you re-enable the hook. New events are held meanwhile; when you ' +
    're-enable it you choose to deliver them, discard them, or deliver only those since a time you pick.',
  'hook.enabled': 'Deliveries to this endpoint have started again.',
};

// Bull Board's pause (ADMIN_PAUSE) is lifted by an administrator only; the customer is not told to
// re-enable a hook the website offers no way to resume.
const ADMIN_PAUSED =
  'An administrator paused this hook: nothing is sent to this endpoint until an administrator resumes it, ' +
  'and new events are held meanwhile. You cannot resume it yourself; ask your provider’s support if it should ' +
  'go on sooner.';
const pausedByAdmin = (notice: Notice) => notice.kind === 'hook.suspended' && isAdminPause(notice.reason);

const escape = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

// Plain words (§15): times, actors and error codes as a customer reads them, never the recorded codes.
const utc = (iso: string) => utcInWords(iso);

// A failure without a status says what happened in the words the website's pages use (failureInWords): an
// OAuth 2.0 hook that got no token reads as that, with nothing sent, not as a connection error.
function failureLine(f: NoticeFailure): string {
  if (f.status_code !== undefined)
    return `${utc(f.attempted_at)}  HTTP ${f.status_code}${f.error ? `  ${plainWords(f.error)}` : ''}`;
  return `${utc(f.attempted_at)}  ${failureInWords(f)}`;
}

/**
 * The notice e-mail: which hook (its description and URL), what happened and why, the last failures, and a
 * link to the hook's page when the website's address is known (HOOKLINE_PUBLIC_URL).
 */
export function noticeMail(
  notice: Notice & { kind: MailedKind },
  hook: Pick<HookView, 'id' | 'url' | 'description'>,
  publicUrl?: string,
  brand: MailBrand = DEFAULT_MAIL_BRAND,
): NoticeMail {
  // Named by its description, with its URL beside; without one, by its URL alone (not twice).
  const name = hook.description ? `“${hook.description}”` : hook.url;
  const subject = `[${brand.name}] Hook ${name} ${HEADLINE[notice.kind]}`;
  const link = publicUrl ? `${publicUrl}/hooks/${hook.id}` : undefined;
  const reason = plainWords(notice.reason);
  const why = notice.kind === 'hook.enabled' ? `What happened: ${reason}.` : `Why: ${reason}.`;
  const next = pausedByAdmin(notice) ? ADMIN_PAUSED : NEXT[notice.kind];
  const lines = [
    `Your hook ${name}${hook.description ? ` (${hook.url})` : ''} ${HEADLINE[notice.kind]} at ${utc(notice.at)}.`,
    '',
    why,
    ...(notice.failures.length > 0
      ? ['', 'The last failures:', ...notice.failures.map((f) => `- ${failureLine(f)}`)]
      : []),
    '',
    next,
    ...(link ? ['', `Open the hook: ${link}`] : []),
    ...(brand.supportUrl ? ['', `Need help? ${brand.supportUrl}`] : []),
    '',
    `— ${brand.name}`,
  ];
  const html = [
    ...(brand.logoUrl
      ? [`<p><img src="${escape(brand.logoUrl)}" alt="${escape(brand.name)}" height="32" /></p>`]
      : []),
    `<p>Your hook <strong>${escape(name)}</strong>${hook.description ? ` (<code>${escape(hook.url)}</code>)` : ''} ${HEADLINE[notice.kind]} at ${utc(notice.at)}.</p>`,
    `<p>${escape(why)}</p>`,
    ...(notice.failures.length > 0
      ? [
          `<p>The last failures:</p><ul>${notice.failures.map((f) => `<li>${escape(failureLine(f))}</li>`).join('')}</ul>`,
        ]
      : []),
    `<p>${escape(next)}</p>`,
    ...(link ? [`<p><a href="${escape(link)}">Open the hook</a></p>`] : []),
    ...(brand.supportUrl ? [`<p><a href="${escape(brand.supportUrl)}">Need help?</a></p>`] : []),
    `<p>— ${escape(brand.name)}</p>`,
  ].join('\n');
  return { subject, text: `${lines.join('\n')}\n`, html };
}
