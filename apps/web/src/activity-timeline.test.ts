import type { AuditEntry } from '@hookline/core';
import type { ActivityEntry } from '@hookline/store';
import { decodeTimelineCursor, timelinePage } from './activity-timeline';

const change = (n: number, at: string): AuditEntry => ({
  id: `aud_${String(n).padStart(25, '0')}`,
  at,
  account_id: 'acc_1',
  action: 'hook.updated',
  actor: { kind: 'account_user' },
  detail: {},
});
const auto = (kind: ActivityEntry['kind'], at: string, actor = 'monitor'): ActivityEntry => ({
  kind,
  at,
  hook_id: 'hk_1',
  actor,
});

describe('the Activity timeline', () => {
  const feed = [
    auto('hook.suspended', '2026-01-01T00:00:03.000Z'),
    // A person's or an admin's entries are the audit log's to show, with who and from where.
    auto('hook.updated', '2026-01-01T00:00:02.500Z', 'customer:acc_1'),
    auto('hook.suspended', '2026-01-01T00:00:02.400Z', 'admin:ops'),
    auto('hook.failing', '2026-01-01T00:00:02.000Z'),
    auto('erasure.done', '2026-01-01T00:00:01.500Z'),
  ];
  const changes = [
    change(4, '2026-01-01T00:00:04.000Z'),
    change(2, '2026-01-01T00:00:02.000Z'),
    change(1, '2026-01-01T00:00:01.000Z'),
  ];

  it('walks people’s changes and the monitor’s entries in one time order, page after page', () => {
    const seen: string[] = [];
    let cursor: ReturnType<typeof decodeTimelineCursor>;
    for (let pages = 0; pages < 10; pages++) {
      const rest = changes.filter(
        (c) =>
          !cursor ||
          Date.parse(c.at) < cursor.at.getTime() ||
          (Date.parse(c.at) === cursor.at.getTime() && c.id < cursor.id),
      );
      const page = timelinePage({ data: rest.slice(0, 2), more: rest.length > 2 }, feed, 2, cursor);
      seen.push(...page.items.map((i) => (i.source === 'change' ? i.entry.id.slice(-1) : i.entry.kind)));
      if (!page.next) break;
      cursor = decodeTimelineCursor(page.next);
      expect(cursor).toBeDefined();
    }
    // At the same millisecond, the monitor's entry comes first, and is never shown twice nor skipped.
    expect(seen).toEqual(['4', 'hook.suspended', 'hook.failing', '2', '1']);
  });

  it('takes no other list’s cursor', () => {
    expect(decodeTimelineCursor('bm90LWEtY3Vyc29y')).toBeUndefined();
  });
});
