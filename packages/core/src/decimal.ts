// `rate` travels as decimal text so that "0.0" and "0.0100" reach the endpoint exactly as the producer wrote
// them; a JS number would turn both into something else.
const DECIMAL = /^-?(?:0|[1-9]\d{0,30})(?:\.\d{1,30})?$/;

/** What decimal text may be, in words: the message of every refusal. */
export const DECIMAL_RULE =
  'must be a decimal number such as 0.0 or 0.0100, in plain digits (no exponent such as 1e2; at most 31 digits ' +
  'before the point and 30 after)';

export function isDecimalText(text: string): boolean {
  return DECIMAL.test(text);
}

/** Decimal text for a JS number the producer sent as a number (no source text available): 0 -> "0". */
export function decimalTextFromNumber(value: number): string | undefined {
  if (!Number.isFinite(value)) return undefined;
  const text = String(value);
  return isDecimalText(text) ? text : undefined;
}
