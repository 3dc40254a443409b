import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { createServices, type Services } from '../services';

/** The production wiring of the queue's services (createServices) on a test's own Redis key prefix. */
export function servicesForTest(ctx: {
  redis: Redis;
  prefix: string;
  onCleanup(fn: () => Promise<unknown>): void;
}): Services {
  const services = createServices({
    redis: ctx.redis,
    settings: {
      HOOKLINE_QUEUE_PREFIX: ctx.prefix,
      HOOKLINE_HOLD_MAX: 10_000,
      HOOKLINE_DELIVERY_LOG_MAX: 1000,
    },
    secretKey: randomBytes(32),
  });
  ctx.onCleanup(() => services.close());
  return services;
}

/** call_created data as producers publish it (the spec's example without its date), for `publish` calls. */
export const SAMPLE_CALL_DATA = {
  call_id: 'c-0',
  direction: 'outbound',
  from: 'jonas1',
  from_cnam: 'Jonas 1',
  to: '78791245',
  rate: '0.0',
} as const;
