import { setTimeout as sleep } from 'node:timers/promises';
import { exposureOf, type LagWindow } from './exposure';
import { startFleet, summary, type FleetOptions, type FleetReport } from './failover-fleet';

// One run of a failover fleet test, whatever Redis fails over (Cluster or Sentinel): the fleet started, a
// steady stretch, the failovers one after another with each hook's carry-on measured, the drain and the
// count; then the two sets of checks the issue's acceptance names, with and without replica acknowledgements.

/** How long the load runs before the first failover: the stretch whose rate is reported as steady. */
const STEADY_MS = 5000;

/** One failover as a test performs it: its lag window, and when the replica was promoted (and rejoined). */
export interface Failover {
  readonly promotedAt: number;
  readonly window: LagWindow;
}

export interface FailoverRun {
  readonly report: FleetReport;
  readonly carryOn: number[];
  readonly windows: LagWindow[];
  readonly log: string[];
  /** Each lost event told whole: its publish's answers, its history records, the lag windows (ms into the run). */
  readonly lost: string[];
}

/**
 * Starts the fleet, runs `failovers` one after another (each gets the run's log), measures after each how
 * long until every hook got a request again, then drains and counts. `between` is waited after each
 * carry-on. The log is printed by the test; with FLEET_TRACE it is also written to stderr as it grows.
 */
export async function runFailovers(
  options: FleetOptions,
  failovers: readonly ((log: string[]) => Promise<Failover>)[],
  between = 0,
): Promise<FailoverRun> {
  const log = traceableLog();
  const fleet = await startFleet(options);
  try {
    const startedAt = Date.now();
    await sleep(STEADY_MS);
    const steady = fleet.acceptedPerSecond(startedAt, Date.now());
    const carryOn: number[] = [];
    const windows: LagWindow[] = [];
    for (const failOver of failovers) {
      const { promotedAt, window } = await failOver(log);
      windows.push(window);
      carryOn.push(await fleet.everyHookCarriesOn(promotedAt).catch(() => Infinity));
      log.push(
        `carried on: ${carryOn.at(-1)} ms; ${fleet.receiver.requests.length} received; ` +
          JSON.stringify(fleet.statuses),
      );
      if (between > 0) await sleep(between);
    }
    const report = await fleet.finish();
    log.push(`every hook carried on within ${carryOn.join(', ')} ms of the promotions`);
    // A lost event's publish, next to the lag windows: when it was tried and what each try was answered.
    const since = (at: number) => at - startedAt;
    const windowsSeen = windows.map((w) => `${since(w.from)}–${since(w.to)}`).join(', ');
    log.push(`lag windows (ms into the run): ${windowsSeen}`);
    const lost = report.lost.map((id) => {
      const answers = report.publishes.get(id)?.answers ?? [];
      const records = report.lostRecords.get(id) ?? [];
      return (
        `${id}: answered ${answers.map((a) => `${a.status} at ${since(a.at)}`).join(', ')} ms; ` +
        `recorded ${records.length === 0 ? 'never' : records.join(' | ')}; lag windows ${windowsSeen} ms`
      );
    });
    log.push(...lost.map((line) => `lost ${line}`));
    // The whole run's rate counts the failovers, in which nothing is accepted until Redis takes writes again
    // (with acknowledgements: until the new primary has a replica); the steady rate is the load without them.
    log.push(
      `load: aimed at ${report.rate.aimed} events/s; accepted ${steady}/s before the first failover, ` +
        `${report.rate.achieved}/s over the whole run (${report.rate.requests} publish requests/s)`,
    );
    return { report, carryOn, windows, log, lost };
  } finally {
    await fleet.close();
  }
}

/** With replica acknowledgements: never twice, never lost, in order, one in flight, each received event recorded once. */
export function expectNothingLostOrTwice(run: FailoverRun, minAccepted: number): void {
  const { report, log } = run;
  console.log([...log, JSON.stringify(summary(report))].join('\n'));
  expect(report.accepted).toBeGreaterThan(minAccepted);
  expect(report.duplicates).toEqual([]);
  // Told whole in the failure's own message: a CI log may keep only the end of the run's printed log.
  expect(run.lost).toEqual([]);
  expect(report.orderViolations).toEqual([]);
  expect(report.historyMissing).toEqual([]);
  expect(report.historyTwice).toEqual([]);
  expectServing(run);
}

/**
 * Without acknowledgements a failover may cost what the README says (What survives what), and nothing else:
 * every event received twice was sent (or published) in a replica's lag window, every lost or late event was
 * published in one, every history hole or double is of such an event. What the run saw is printed.
 */
export function expectOnlyLagWindowsExposed(run: FailoverRun, minAccepted: number): void {
  const { report, windows, log } = run;
  const exposure = exposureOf(report, windows);
  console.log([...log, JSON.stringify(summary(report)), JSON.stringify(exposure)].join('\n'));
  expect(report.accepted).toBeGreaterThan(minAccepted);
  expect(exposure.duplicates.unexplained).toEqual([]);
  expect(exposure.lost.unexplained).toEqual([]);
  expect(exposure.late.unexplained).toEqual([]);
  expect(exposure.history.unexplained).toEqual([]);
  expectServing(run);
}

/** Both ways: only 200/202/503 from the API, one request in flight per hook, every hook carrying on within 30 s, no process died. */
function expectServing({ report, carryOn }: FailoverRun): void {
  expect(Object.keys(report.statuses).filter((s) => !['200', '202', '503'].includes(s))).toEqual([]);
  expect(report.maxInFlightPerHook).toBe(1);
  for (const ms of carryOn) expect(ms).toBeLessThan(30_000);
  expect(report.exited).toEqual([]);
}

function traceableLog(): string[] {
  const log: string[] = [];
  const push = log.push.bind(log);
  log.push = (...lines: string[]) => {
    if (process.env.FLEET_TRACE) process.stderr.write(`${lines.join('\n')}\n`);
    return push(...lines);
  };
  return log;
}
