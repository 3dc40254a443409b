import { z } from 'zod';
import { decimalTextFromNumber, isDecimalText } from './decimal';
import { callCreatedData } from './event-kinds';
import { freeTextProblem } from './text';
import { isEventTimestamp } from './timestamp';

// A lossless JSON parser hands numbers over as objects carrying their source text; accepting that shape
// here (without depending on the parser) is what lets `"rate": 0.0` reach the endpoint as 0.0.
interface NumberWithSource {
  readonly isLosslessNumber: true;
  readonly value: string;
}
const isNumberWithSource = (v: unknown): v is NumberWithSource =>
  typeof v === 'object' && v !== null && (v as NumberWithSource).isLosslessNumber === true;

const rateText = z.preprocess(
  (value) => {
    if (isNumberWithSource(value)) return value.value;
    if (typeof value === 'number') return decimalTextFromNumber(value) ?? String(value);
    return value;
  },
  z.string({ error: 'must be a decimal number or decimal string' }),
);

export const idempotencyKey = z
  .string()
  .min(1, 'must not be empty')
  .max(200, 'must be at most 200 characters')
  .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces');

export const publishEventInput = z.strictObject({
  type: z.literal('call_created', { error: 'type must be "call_created"' }),
  id: idempotencyKey.optional(),
  data: callCreatedData.extend({ rate: rateText.pipe(callCreatedData.shape.rate) }),
});
export type PublishEventInput = z.infer<typeof publishEventInput>;

// The text fields of call_created's data, in the schema's order, with their length bounds.
const DATA_TEXT: readonly (readonly [name: string, max: number, min: number])[] = [
  ['call_id', 256, 1],
  ['direction', 64, 1],
  ['from', 256, 0],
  ['from_cnam', 256, 0],
  ['to', 256, 0],
];
const DATA_KEYS = new Set([...DATA_TEXT.map(([name]) => name), 'rate', 'date']);
const IDEMPOTENCY_KEY = /^[\x21-\x7e]+$/;

// Only a plain object, as JSON.parse makes them: one whose prototype was swapped (a "__proto__" key set as
// the prototype) could lend fields the schema, which sees own keys only, would not find.
const isPlainRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' &&
  v !== null &&
  (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null);

const isText = (v: unknown, max: number, min: number): v is string =>
  typeof v === 'string' && v.length >= min && v.length <= max && freeTextProblem(v) === undefined;

function rateOf(value: unknown): string | undefined {
  const text = isNumberWithSource(value)
    ? value.value
    : typeof value === 'number'
      ? (decimalTextFromNumber(value) ?? String(value))
      : value;
  return typeof text === 'string' && isDecimalText(text) ? text : undefined;
}

/**
 * What `publishEventInput` makes of a body it accepts, without zod: the same object, keys in the schema's
 * order. Validating with zod cost more than anything else the API does per published event. Undefined for
 * any body it does not accept, which the schema then judges (and words the errors for); undefined values
 * are left to the schema too (JSON has none). publish-input.test.ts holds the two to the same answers.
 */
export function acceptPublishEventInput(body: unknown): PublishEventInput | undefined {
  if (!isPlainRecord(body) || body.type !== 'call_created' || !isPlainRecord(body.data)) return undefined;
  for (const key of Object.keys(body)) if (key !== 'type' && key !== 'id' && key !== 'data') return undefined;
  const { id, data } = body;
  if (Object.hasOwn(body, 'id') && !(typeof id === 'string' && id.length <= 200 && IDEMPOTENCY_KEY.test(id)))
    return undefined;
  for (const key of Object.keys(data)) if (!DATA_KEYS.has(key)) return undefined;
  const fields: Record<string, string> = {};
  for (const [name, max, min] of DATA_TEXT) {
    const value = data[name];
    if (!isText(value, max, min)) return undefined;
    fields[name] = value;
  }
  const rate = rateOf(data.rate);
  if (rate === undefined) return undefined;
  fields.rate = rate;
  if (Object.hasOwn(data, 'date')) {
    if (typeof data.date !== 'string' || !isEventTimestamp(data.date)) return undefined;
    fields.date = data.date;
  }
  return {
    type: 'call_created',
    ...(Object.hasOwn(body, 'id') ? { id: id as string } : {}),
    data: fields as PublishEventInput['data'],
  };
}
