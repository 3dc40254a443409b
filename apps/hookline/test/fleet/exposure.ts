import type { FleetReport } from './failover-fleet';

// What a failover may cost without replica acknowledgements (HOOKLINE_REDIS_REPLICA_ACKS=0), as the README
// states it (What survives what): only what the failed primary wrote in its replica's lag window, the moments
// between the last write the replica copied and the primary's death. In the fleet tests that window is
// known: the replica is frozen, then the primary killed. This holds a run to that statement: each
// duplicate, lost event and late event must be explained by a window; anything else is a defect.

/** One failover's lag window: from the replica's freeze to the primary's death (ms since the epoch). */
export interface LagWindow {
  readonly from: number;
  readonly to: number;
}

// A replica under load is some milliseconds behind even before it is frozen; a request whose mark was written
// just before the kill reaches the receiver a little later; a publish answered just after the kill had its
// writes on the primary before. Generous on a loaded machine, still a few seconds of a run of minutes.
const BEFORE_MS = 1000;
const AFTER_MS = 2000;

const within = (at: number | undefined, windows: readonly LagWindow[]) =>
  at !== undefined && windows.some((w) => at >= w.from - BEFORE_MS && at <= w.to + AFTER_MS);

/** A publish whose writes may have been in a window: it was tried before a window ended and answered after it began. */
const spans = (p: { firstTriedAt: number; acceptedAt?: number } | undefined, windows: readonly LagWindow[]) =>
  p !== undefined &&
  windows.some((w) => p.firstTriedAt <= w.to + AFTER_MS && (p.acceptedAt ?? Infinity) >= w.from - BEFORE_MS);

export interface Exposure {
  /** Events received twice, each with its reason from the README's list, or `unexplained`. */
  readonly duplicates: Record<'sent in a window' | 'published across a window' | 'unexplained', string[]>;
  /** Accepted events never received: accepted in a window, or `unexplained`. */
  readonly lost: Record<'accepted in a window' | 'unexplained', string[]>;
  /** Events that arrived after a later one of their hook: published in a window (its job lost and added again
   * by the fan-out recovery), or `unexplained`. */
  readonly late: Record<'published across a window' | 'unexplained', string[]>;
  /** Received events without a record, or with two: sent in a window (or sent twice), or `unexplained`. */
  readonly history: Record<'of a window' | 'unexplained', string[]>;
}

export function exposureOf(report: FleetReport, windows: readonly LagWindow[]): Exposure {
  const duplicates: Exposure['duplicates'] = {
    'sent in a window': [],
    'published across a window': [],
    unexplained: [],
  };
  for (const id of report.duplicates) {
    if (within(report.firstReceipts.get(id), windows)) duplicates['sent in a window'].push(id);
    else if (spans(report.publishes.get(id), windows)) duplicates['published across a window'].push(id);
    else duplicates.unexplained.push(id);
  }
  const lost: Exposure['lost'] = { 'accepted in a window': [], unexplained: [] };
  for (const id of report.lost)
    (spans(report.publishes.get(id), windows) ? lost['accepted in a window'] : lost.unexplained).push(id);
  const late: Exposure['late'] = { 'published across a window': [], unexplained: [] };
  for (const id of report.orderViolations)
    (spans(report.publishes.get(id), windows) ? late['published across a window'] : late.unexplained).push(
      id,
    );
  const history: Exposure['history'] = { 'of a window': [], unexplained: [] };
  const twice = new Set(report.duplicates);
  for (const id of [...report.historyMissing, ...report.historyTwice])
    (twice.has(id) || within(report.firstReceipts.get(id), windows)
      ? history['of a window']
      : history.unexplained
    ).push(id);
  return { duplicates, lost, late, history };
}
