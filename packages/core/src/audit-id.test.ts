import { AUDIT_ID, newAuditId } from './audit';

describe('audit ids', () => {
  it('keep the order they were made in within one millisecond, and sort by time across milliseconds', () => {
    const now = Date.parse('2026-11-28T06:00:00.000Z');
    const made = [
      ...Array.from({ length: 200 }, () => newAuditId(now)),
      ...Array.from({ length: 200 }, () => newAuditId(now + 1)),
    ];
    expect(made.every((id) => AUDIT_ID.test(id))).toBe(true);
    expect(new Set(made).size).toBe(made.length);
    expect([...made].sort()).toEqual(made);
  });

  it('start from a fresh random suffix in each millisecond, so two processes rarely tie', () => {
    const now = Date.parse('2026-11-28T06:00:00.000Z');
    const a = newAuditId(now + 10);
    const b = newAuditId(now + 11);
    expect(a.slice(13)).not.toBe(b.slice(13));
  });
});
