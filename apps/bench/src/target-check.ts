import type { TargetCheck } from './results';

// One target checked against its figure: met, or by how much it is missed (value / limit).

const round = (v: number) => Math.round(v * 1000) / 1000;

/** value / limit, or for a limit of 0: 0 when the value is 0 too, and no ratio otherwise. */
const toTarget = (value: number, limit: number) =>
  limit !== 0 ? { ratioToTarget: round(value / limit) } : value === 0 ? { ratioToTarget: 0 } : {};

export function atLeast(
  target: string,
  figure: string,
  value: number | undefined,
  limit: number,
): TargetCheck[] {
  if (value === undefined) return [];
  return [{ target, figure, value, limit, ...toTarget(value, limit), met: value >= limit }];
}

export function atMost(
  target: string,
  figure: string,
  value: number | undefined,
  limit: number,
): TargetCheck[] {
  if (value === undefined) return [];
  return [{ target, figure, value, limit, ...toTarget(value, limit), met: value <= limit }];
}

/**
 * Not a target check: the same kind of figure for a reference hookline builds on (BullMQ alone), showing
 * whether the target is within reach at all ("reachable" or "OUT OF REACH" in the report).
 */
export function boundAtMost(
  target: string,
  figure: string,
  value: number | undefined,
  limit: number,
): TargetCheck[] {
  return atMost(target, figure, value, limit).map((check) => ({ ...check, bound: true }));
}
