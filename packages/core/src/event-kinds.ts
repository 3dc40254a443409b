import { z } from 'zod';
import { isDecimalText } from './decimal';
import { freeTextProblem } from './text';
import { isEventTimestamp } from './timestamp';

// The event catalogue is plain data: each kind lists its payload fields in wire order. Encoders and the
// delivery preview are generic over it, so a new kind is a new entry here, not new encoding code.
export type FieldKind = 'string' | 'decimal';
export interface EventKind {
  readonly type: string;
  readonly fields: readonly { readonly name: string; readonly kind: FieldKind }[];
}

// Event fields reach customers as given, so they are refused at the door when they could not be (text.ts).
const text = (max: number) =>
  z
    .string()
    .max(max, `must be at most ${max} characters`)
    .superRefine((v, ctx) => {
      const problem = freeTextProblem(v);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    });

export const callCreatedData = z.strictObject({
  call_id: text(256).min(1, 'must not be empty'),
  direction: text(64).min(1, 'must not be empty'),
  from: text(256),
  from_cnam: text(256),
  to: text(256),
  rate: z.string().refine(isDecimalText, 'must be a decimal number such as 0.0 or 0.0100'),
  date: z
    .string()
    .refine(isEventTimestamp, 'must be a timestamp shaped YYYY-MM-DDThh:mm:ss.fffffff (7 digits, no zone)')
    .optional(),
});
export type CallCreatedData = z.infer<typeof callCreatedData>;

export const EVENT_KINDS = {
  call_created: {
    type: 'call_created',
    fields: [
      { name: 'EventType', kind: 'string' },
      { name: 'call_id', kind: 'string' },
      { name: 'direction', kind: 'string' },
      { name: 'from', kind: 'string' },
      { name: 'from_cnam', kind: 'string' },
      { name: 'to', kind: 'string' },
      { name: 'rate', kind: 'decimal' },
      { name: 'date', kind: 'string' },
    ],
  },
} as const satisfies Record<string, EventKind>;

export type EventType = keyof typeof EVENT_KINDS;
export const EVENT_TYPES = Object.keys(EVENT_KINDS) as [EventType, ...EventType[]];

export function eventKind(type: string): EventKind | undefined {
  return (EVENT_KINDS as Record<string, EventKind>)[type];
}

/**
 * An event as it is delivered: the kind and every payload field as text, in the kind's wire order
 * (EventType included). This is what job data carries, so encoding at delivery time is deterministic.
 */
export interface DeliverableEvent {
  readonly id: string;
  readonly type: EventType;
  readonly fields: Readonly<Record<string, string>>;
}
