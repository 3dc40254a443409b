import { createHash } from 'node:crypto';
import {
  type DeliverableEvent,
  type EventKind,
  EVENT_TYPE_FIELD,
  type PublishEventInput,
  formatEventTimestamp,
  layoutOf,
  newId,
} from '@hookline/core';

/**
 * What a publish asked for, as a hash: the kind and the data with keys sorted, so a retry of the same request
 * matches whatever order its JSON keys came in.
 */
export function fingerprint(input: PublishEventInput): string {
  const sorted = Object.fromEntries(Object.entries(input.data).sort(([a], [b]) => (a < b ? -1 : 1)));
  return createHash('sha256')
    .update(JSON.stringify([input.type, sorted]))
    .digest('hex');
}

/**
 * Every field as text in the kind's order, EventType first: an absent optional timestamp is stamped with the
 * current UTC time (§3's date rule), any other absent optional field is left out. Catalogue kinds carry their
 * layout with them (see DeliverableEvent); built-in kinds do not need to, so their jobs are unchanged.
 */
export function toDeliverable(
  id: string,
  input: PublishEventInput,
  kind: EventKind,
  now: Date,
): DeliverableEvent {
  const fields: Record<string, string> = { [EVENT_TYPE_FIELD]: kind.name };
  for (const field of kind.fields) {
    const value = Object.hasOwn(input.data, field.name) ? input.data[field.name] : undefined;
    if (value !== undefined) fields[field.name] = value;
    else if (field.type === 'timestamp') fields[field.name] = formatEventTimestamp(now);
  }
  if (kind.builtIn) return { id, type: kind.name, fields };
  return { id, type: kind.name, fields, layout: layoutOf(kind, (field) => fields[field.name] !== undefined) };
}

/**
 * The sample call_created a test event carries: it reads as a test on the receiver's side. It names no product:
 * the endpoint's owner and the attempt's page read it, and under an operator's brand (product.md §16) they must
 * never read "hookline".
 */
export function testCallEvent(): PublishEventInput {
  return {
    type: 'call_created',
    data: {
      call_id: `test-${newId('evt').slice(4, 16)}`,
      direction: 'outbound',
      from: 'test',
      from_cnam: 'Test event',
      to: '0000000000',
      rate: '0.0',
    },
  };
}
