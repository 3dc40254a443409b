import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { AttemptRecord } from './attempt-record';
import type { DeliveryRecord } from './outcomes';
import { EVENT_TYPE_FIELD, STRING_FIELD_MAX, type DeliverableEvent, type EventCatalog } from './event-kinds';
import { freeTextProblem } from './text';

// Erasure of one person's data (product.md §18): every event of an account whose call id is X, or whose
// `from` or `to` is the number N. This file holds the pure parts: what an erasure asks for, which events it
// matches, the tags the delivery fence compares, and what is left of a history record afterwards.

/**
 * Per kind, the fields the operator's catalogue marks personal (`"personal": true`): an erasure by number
 * matches them besides `from` and `to`. Only kinds with such a field are listed.
 */
export type PersonalFields = Readonly<Record<string, readonly string[]>>;

export type ErasureTarget =
  | { readonly kind: 'call_id'; readonly value: string }
  | {
      readonly kind: 'number';
      readonly value: string;
      /** The catalogue's personal fields when the erasure was accepted (kept with it, so a restart agrees). */
      readonly personal?: PersonalFields;
    };

/** The personal fields of a catalogue: what an erasure by number accepted with it matches, per kind. */
export function personalFields(catalog: EventCatalog): PersonalFields {
  const found: Record<string, string[]> = {};
  for (const kind of catalog.producerKinds) {
    const names = kind.fields.filter((field) => field.personal === true).map((field) => field.name);
    if (names.length > 0) found[kind.name] = names;
  }
  return found;
}

/** The fields a `number` matches. */
export const NUMBER_FIELDS = ['from', 'to'] as const;

const value = (field: string) =>
  z
    .string({ error: `${field} must be a text` })
    // Spaces only would match no event, and an erasure that reaches nothing must not look accepted.
    .refine((v) => v.trim() !== '', `${field} must not be empty or only spaces`)
    // As long as the longest text an event field accepts (a catalogue kind's call_id or personal field):
    // a shorter cap would leave events that no erasure can name.
    .max(STRING_FIELD_MAX, `${field} must be at most ${STRING_FIELD_MAX} characters`)
    .superRefine((v, ctx) => {
      const problem = freeTextProblem(v);
      if (problem) ctx.addIssue({ code: 'custom', message: `${field} ${problem}` });
    });

/** The POST body: exactly one of call_id and number. */
export const erasureInput = z
  .strictObject({
    call_id: value('call_id').optional().describe('Erase every event of this call'),
    number: value('number')
      .optional()
      .describe(
        'Erase every event whose from or to, or a field the catalogue marks personal, is this number (exactly as published)',
      ),
  })
  .refine((v) => (v.call_id === undefined) !== (v.number === undefined), {
    message: 'give exactly one of call_id and number',
    path: ['call_id'],
  });

export function erasureTarget(input: z.infer<typeof erasureInput>): ErasureTarget {
  return input.call_id !== undefined
    ? { kind: 'call_id', value: input.call_id }
    : { kind: 'number', value: input.number! };
}

/** Whether an event of this kind with these fields is one the erasure reaches. */
export function erasureMatches(
  target: ErasureTarget,
  fields: Readonly<Record<string, string>>,
  type?: string,
): boolean {
  const has = (name: string) => Object.hasOwn(fields, name) && fields[name] === target.value;
  if (target.kind === 'call_id') return has('call_id');
  const personal = type !== undefined && target.personal && Object.hasOwn(target.personal, type);
  return NUMBER_FIELDS.some(has) || (personal ? (target.personal?.[type] ?? []).some(has) : false);
}

// Tags, not values, are what the fence keeps in Redis while an erasure runs: a worker about to send an event
// sends the tags of its fields, and the script refuses when one is marked. They are dropped when the erasure
// is done; they are hashes so that no key holds the number or call id itself.
const tag = (kind: 'c' | 'n' | 'p', text: string) =>
  `${kind}:${createHash('sha256').update(`hookline-erasure:${kind}:${text}`).digest('base64url').slice(0, 22)}`;
// A personal field's tag names its kind and field: a worker cannot know which fields its catalogue marks (it
// may have none, or another version during a deploy), so it tags every text field of a catalogue kind, and
// only the erasure's own (kind, field) pairs are marked.
const personalTag = (kind: string, field: string, value: string) => tag('p', `${kind}\n${field}\n${value}`);

/** The erasure's main tag (its call id, or its number in `from` and `to`). */
export function erasureTag(target: ErasureTarget): string {
  return tag(target.kind === 'call_id' ? 'c' : 'n', target.value);
}

/** Every tag an erasure marks in the fence: its main tag and one per personal field it matches. */
export function erasureTags(target: ErasureTarget): string[] {
  const tags = [erasureTag(target)];
  if (target.kind === 'number')
    for (const [kind, names] of Object.entries(target.personal ?? {}))
      for (const name of names) tags.push(personalTag(kind, name, target.value));
  return tags;
}

/**
 * The tags of an event: what any erasure that reaches it would have marked. Built-in kinds have no personal
 * fields (the catalogue marks only its own kinds), so their events cost the two or three tags they always did;
 * an event of a catalogue kind (it carries its layout) adds one per text field.
 */
export function eventErasureTags(
  fields: Readonly<Record<string, string>>,
  event?: Pick<DeliverableEvent, 'type' | 'layout'>,
): string[] {
  const tags: string[] = [];
  if (Object.hasOwn(fields, 'call_id')) tags.push(tag('c', fields['call_id']!));
  for (const name of NUMBER_FIELDS) if (Object.hasOwn(fields, name)) tags.push(tag('n', fields[name]!));
  for (const [name, type] of event?.layout ?? [])
    if (type === 'string' && name !== EVENT_TYPE_FIELD && Object.hasOwn(fields, name))
      tags.push(personalTag(event!.type, name, fields[name]!));
  return tags;
}

/**
 * What is kept of a delivery whose event was erased: ids, times, the outcome, its status and duration; the
 * event's fields, the request sent (headers, body), the response and the error text go.
 */
function keptOfErased(record: DeliveryRecord) {
  return {
    attempt_id: record.attempt_id,
    event_id: record.event_id,
    event_type: record.event_type,
    trigger: record.trigger,
    outcome: record.outcome,
    ...(record.status_code !== undefined ? { status_code: record.status_code } : {}),
    duration_ms: record.duration_ms,
    attempted_at: record.attempted_at,
  };
}

/** What the history keeps of an erased record: what `keptOfErased` keeps, with its account and hook. */
export function erasedRecord(record: AttemptRecord, erasedAt: Date): AttemptRecord {
  return {
    ...keptOfErased(record),
    account_id: record.account_id,
    hook_id: record.hook_id,
    erased_at: erasedAt.toISOString(),
  };
}

/** What a quoted delivery (a suspension's failures) keeps once its event is erased. */
export function erasedDelivery(record: DeliveryRecord, erasedAt: Date): DeliveryRecord {
  return { ...keptOfErased(record), erased_at: erasedAt.toISOString() };
}

/** The counts an erasure reports, per place it reached. */
export interface ErasureCounts {
  /** History records in the database emptied to stubs. */
  history: number;
  /** Records not yet written to the database (outboxes), emptied likewise. */
  outboxes: number;
  /** Events waiting or held in a hook's queue, removed and recorded `erased`. */
  queued: number;
  /** Events accepted but not yet in the hooks' queues (the account's inbox), removed. */
  inbox: number;
  /** Finished jobs BullMQ keeps for the admin area, emptied of their data. */
  retained: number;
  /** Idempotency fingerprints of erased events, removed. */
  idempotency: number;
  /** Hook records quoting an erased event among a suspension's failures, cleaned. */
  hooks: number;
}

export const NO_COUNTS: ErasureCounts = {
  history: 0,
  outboxes: 0,
  queued: 0,
  inbox: 0,
  retained: 0,
  idempotency: 0,
  hooks: 0,
};
