import { formatEventTimestamp, type PublishEventInput } from '@hookline/core';
import type { Notice } from '@hookline/suspension';

/**
 * A notice as an event of its built-in kind, for the operator's webhook (see the notice kinds in
 * packages/core event-kinds.ts): the account, the hook and its URL, its state after the transition, why, and the
 * last failures as text, dated when the transition happened (not when the notifier got to it). The stream entry's id is the event's idempotency key: a notice sent again after a
 * notifier crash is not delivered twice.
 */
export function operatorEvent(entryId: string, notice: Notice, hookUrl: string): PublishEventInput {
  const lines = notice.failures.map(
    (f) =>
      `${f.attempted_at} ${f.outcome}${f.status_code !== undefined ? ` ${f.status_code}` : ''}${f.error ? ` ${f.error}` : ''}`,
  );
  const common = {
    account_id: notice.accountId,
    hook_id: notice.hookId,
    url: hookUrl,
    state: notice.kind === 'hook.suspended' ? 'suspended' : notice.kind === 'hook.stuck' ? 'stuck' : 'active',
    reason: notice.reason,
    last_failures: lines.join('\n'),
  };
  const extra: Record<string, string> =
    notice.kind === 'hook.failing'
      ? { failures: String(notice.count ?? notice.failures.length) }
      : notice.kind === 'hook.enabled'
        ? { actor: notice.actor }
        : notice.kind === 'hook.stuck'
          ? { waiting: String(notice.count ?? 0) }
          : {};
  return {
    type: notice.kind,
    id: `notice-${entryId}`,
    data: { ...common, ...extra, date: formatEventTimestamp(new Date(notice.at)) },
  };
}
