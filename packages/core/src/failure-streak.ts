/**
 * A hook is failing once its streak of non-delivered outcomes reaches half the suspension threshold
 * (HOOKLINE_SUSPEND_AFTER_FAILURES), at least 1. The monitor warns there; the website says so in words.
 */
export const warnAt = (threshold: number): number => Math.max(1, Math.ceil(threshold / 2));
