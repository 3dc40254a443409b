import type { DeliverableEvent } from './event-kinds';

/** The seed specification's own call_created example (product.md §3) as a producer publishes it. */
export const SAMPLE_CALL_DATA = {
  call_id: '9309b4a2-d59f',
  direction: 'outbound',
  from: 'jonas1',
  from_cnam: 'Jonas 1',
  to: '78791245',
  rate: '0.0',
  date: '2016-03-01T08:31:55.0000000',
} as const;

/** The same example as hookline delivers it, field for field. */
export const SAMPLE_CALL_CREATED: DeliverableEvent = {
  id: 'evt_sample',
  type: 'call_created',
  fields: { EventType: 'call_created', ...SAMPLE_CALL_DATA },
};
