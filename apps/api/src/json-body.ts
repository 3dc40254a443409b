import { isLosslessNumber, parse } from 'lossless-json';
import { HooklineError } from '@hookline/core';

export const BODY_LIMIT = 65536;

/** A body over the limit: whether its length was declared, it grew past it, or it was declared with Expect. */
export const payloadTooLarge = (): HooklineError =>
  new HooklineError('PAYLOAD_TOO_LARGE', `Request body is larger than ${BODY_LIMIT} bytes`);

/**
 * Request bodies are parsed with lossless-json so that `"rate": 0.0` keeps its text "0.0" (JSON.parse would
 * make it 0). Numbers come out as LosslessNumber objects; `plainNumbers` turns them back into numbers
 * everywhere except where a route asked for the source text. Duplicate keys with different values are
 * refused rather than silently resolved.
 */
export function parseJsonBody(body: Buffer | string): unknown {
  const text = typeof body === 'string' ? body : utf8(body);
  if (text.trim() === '') return undefined;
  try {
    return parse(text);
  } catch (error) {
    // The parser recurses: valid JSON nested deeper than the stack allows (64 KiB holds 30,000 arrays) ends in
    // a RangeError, and "not valid JSON" would be false.
    if (error instanceof RangeError)
      throw new HooklineError('INVALID_JSON', 'Request body is nested too deeply to be read');
    const reason = error instanceof SyntaxError ? error.message : 'unreadable JSON';
    throw new HooklineError('INVALID_JSON', `Request body is not valid JSON: ${reason}`);
  }
}

// Bytes that are not UTF-8 would be replaced with U+FFFD and then stored and sent as if the client had sent
// that: refused instead, like any other text that would not reach a receiver as given.
const decoder = new TextDecoder('utf-8', { fatal: true });

function utf8(body: Buffer): string {
  try {
    return decoder.decode(body);
  } catch {
    throw new HooklineError(
      'INVALID_JSON',
      'Request body is not valid UTF-8: JSON must be sent as UTF-8 bytes, and these are not',
    );
  }
}

export function plainNumbers(value: unknown, keepText: readonly string[], path = ''): unknown {
  if (isLosslessNumber(value)) return keepText.includes(path) ? value : Number(value.value);
  if (Array.isArray(value))
    return value.map((item, i) => plainNumbers(item, keepText, join(path, String(i))));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      // Own-property definition, so a "__proto__" key stays a key (and is refused as unknown by the schema).
      Object.defineProperty(out, key, {
        value: plainNumbers(item, keepText, join(path, key)),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return value;
}

const join = (path: string, key: string) => (path ? `${path}.${key}` : key);
