import { z } from 'zod';
import { callCreatedData } from './event-kinds';
import { decimalTextFromNumber } from './decimal';

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
