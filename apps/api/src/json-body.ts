import { isLosslessNumber, parse } from 'lossless-json';
import { HooklineError } from '@hookline/core';

export const BODY_LIMIT = 65536;

/**
 * Request bodies are parsed with lossless-json so that `"rate": 0.0` keeps its text "0.0" (JSON.parse would
 * make it 0). Numbers come out as LosslessNumber objects; `plainNumbers` turns them back into numbers
 * everywhere except where a route asked for the source text. Duplicate keys with different values are
 * refused rather than silently resolved.
 */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return parse(text);
  } catch (error) {
    const reason = error instanceof SyntaxError ? error.message : 'unreadable JSON';
    throw new HooklineError('INVALID_JSON', `Request body is not valid JSON: ${reason}`);
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
