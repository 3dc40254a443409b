import { AUDIT_ID } from './audit';
import { ID_PATTERN, newAuditId, newId } from './ids';

describe('newId', () => {
  it('makes ids of the documented shapes', () => {
    expect(newId('acct')).toMatch(/^acct_[0-9a-f]{20}$/);
    expect(newId('hk')).toMatch(/^hk_[0-9a-f]{20}$/);
    const at = Date.UTC(2026, 0, 2, 3, 4, 5);
    expect(newId('evt', at)).toMatch(new RegExp(`^evt_${at.toString(36).padStart(9, '0')}[0-9a-f]{16}$`));
    for (const prefix of ['acct', 'hk', 'evt', 'att'] as const) expect(newId(prefix)).toMatch(ID_PATTERN);
  });

  it('makes attempt ids that sort in the order they were made, also within one millisecond', () => {
    const at = Date.UTC(2026, 10, 24, 9, 0, 0);
    const ids = [
      newId('att', at - 1),
      ...Array.from({ length: 50 }, () => newId('att', at)),
      newId('att', at + 1),
    ];
    expect(ids[1]).toMatch(new RegExp(`^att_${at.toString(36).padStart(9, '0')}[0-9a-z]{4}[0-9a-f]{12}$`));
    expect([...ids].sort()).toEqual(ids);
  });

  it('makes audit ids that sort in the order they were made, also within one millisecond', () => {
    const at = Date.UTC(2026, 10, 28, 6, 0, 0);
    const ids = [
      ...Array.from({ length: 200 }, () => newAuditId(at)),
      ...Array.from({ length: 200 }, () => newAuditId(at + 1)),
    ];
    expect(ids.every((id) => AUDIT_ID.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });

  it('never repeats a random tail, across many refills of the random pool', () => {
    const tails = new Set<string>();
    for (let i = 0; i < 5000; i++) tails.add(newId('hk').slice(3));
    expect(tails.size).toBe(5000);
  });
});
