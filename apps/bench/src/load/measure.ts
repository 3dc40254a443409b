import { nowMicros, sleep } from '../clock';
import type { Receivers } from '../receivers/receivers';
import { summarizeLatencies, type LatencySummary } from '../stats';

export interface WindowTiming {
  readonly warmupMs: number;
  readonly measureMs: number;
}

export interface MeasuredWindow {
  /** Requests answered by healthy receivers within the window, per second. */
  readonly perSecond: number;
  readonly latency?: LatencySummary;
  readonly hangingReceipts: number;
  readonly seconds: number;
}

/** Something sampled at the start and end of a window (CPU, Redis commands), given the window's work. */
export interface WindowProbe<T> {
  begin(): Promise<unknown>;
  end(mark: unknown, deliveries: number, seconds: number): Promise<T>;
}

/**
 * Lets load run for warmup + measure, and reads what the receivers timed in the measured part only, so the
 * attach burst at the start of a phase does not count.
 */
export async function measureWindow<T>(
  receivers: Receivers,
  timing: WindowTiming,
  probe?: WindowProbe<T>,
): Promise<MeasuredWindow & { usage?: T }> {
  await sleep(timing.warmupMs);
  const from = nowMicros();
  const mark = await probe?.begin();
  await sleep(timing.measureMs);
  const to = nowMicros();
  const window = await receivers.collect(from, to);
  const seconds = (to - from) / 1e6;
  const usage = probe ? await probe.end(mark, window.healthy.length, seconds) : undefined;
  return {
    perSecond: Math.round(window.healthy.length / seconds),
    latency: summarizeLatencies(window.healthy),
    hangingReceipts: window.hangingCount,
    seconds: Math.round(seconds * 100) / 100,
    ...(usage !== undefined ? { usage } : {}),
  };
}
