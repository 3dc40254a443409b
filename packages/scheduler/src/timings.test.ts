import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { engineFigures, ENGINE_TIMINGS, timingTable } from './timings';

describe('the timing table', () => {
  it('is the one DESIGN.md prints', () => {
    const note = readFileSync(join(__dirname, '..', 'DESIGN.md'), 'utf8');
    const printed = /<!-- timings:start -->\n([\s\S]*?)\n<!-- timings:end -->/.exec(note)?.[1];
    const table = [
      '| figure | default | from |',
      '|---|---|---|',
      ...timingTable().map((row) => `| ${row.join(' | ')} |`),
    ].join('\n');
    // On a mismatch, paste `table` between the markers of DESIGN.md.
    expect(printed).toBe(table);
  });

  it('keeps a request inside its lock, and a frozen holder out of its successor’s way', () => {
    const deadlineMs = 15_000;
    const f = engineFigures(deadlineMs);
    // A request needs the deadline plus the send margin of lock left, and the lock must be able to give it.
    expect(f.lockMs).toBeGreaterThan(deadlineMs + ENGINE_TIMINGS.sendMarginMs);
    // Leases are renewed well before a process stops trusting them, and trusted for less than they last.
    expect(f.renewEveryMs).toBeLessThan(f.trustedForMs);
    expect(f.trustedForMs).toBeLessThan(ENGINE_TIMINGS.leaseMs);
    // Locks are extended several times per lock, so one slow extension does not lose the job.
    expect(f.lockExtendEveryMs * 2).toBeLessThan(f.lockMs);
    // The README promises that a hook carries on within 30 s of a worker's kill -9.
    expect(f.carryOnAfterKillMs).toBeLessThanOrEqual(30_000);
  });
});
