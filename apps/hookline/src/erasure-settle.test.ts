import { FANOUT_FENCED_AFTER_MS } from '@hookline/queue';
import { erasureSettleMs } from './erasure-settle';

describe("an erasure's wait before its second pass", () => {
  it('outlasts the delivery deadline and the writer', () => {
    expect(erasureSettleMs({ HOOKLINE_DELIVERY_TIMEOUT_MS: 60_000 })).toBe(70_000);
  });

  // A process that accepted a matching event before the erasure and froze queues it before the second pass
  // (which removes it) or never: by then its fan-out is refused as stale (apps/monitor/test/erasure-frozen-api).
  it('lasts at least FANOUT_FENCED_AFTER_MS, however short the deadline', () => {
    expect(erasureSettleMs({ HOOKLINE_DELIVERY_TIMEOUT_MS: 100 })).toBe(FANOUT_FENCED_AFTER_MS);
    expect(erasureSettleMs({ HOOKLINE_DELIVERY_TIMEOUT_MS: 15_000 })).toBeGreaterThanOrEqual(55_000);
  });
});
