import { z } from 'zod';
import type { AttemptRecord } from './attempt-record';
import type { DeliveryRecord } from './outcomes';
import { STRING_FIELD_MAX, type EventCatalog } from './event-kinds';
import { freeTextProblem } from './text';

// Erasure of one person's data (product.md §18): every event of an account whose call id is X, or whose
// `from` or `to` is the number N. This file holds the pure parts: what an erasure asks for, which events it
// matches and what is left of a history record afterwards (the tags the delivery fence compares: erasure-tags.ts).

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
  .superRefine((v, ctx) => {
    if (v.call_id === undefined && v.number === undefined)
      ctx.addIssue({ code: 'custom', message: 'give exactly one of call_id and number', path: ['call_id'] });
    // Both given: each is named, so that neither looks like the one that was right.
    else if (v.call_id !== undefined && v.number !== undefined)
      for (const field of ['call_id', 'number'])
        ctx.addIssue({
          code: 'custom',
          message: 'give only one of call_id and number: an erasure is by one of them',
          path: [field],
        });
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
