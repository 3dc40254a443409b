// Each event carries its own publish time in call_id, so the receiver can compute publish->receipt latency
// without a lookup shared between threads. The ceiling requests carry the same stamp in the same field.
const PREFIX = 'bench-';
const NEEDLE = `"call_id":"${PREFIX}`;

export function stampedCallId(publishedAtMicros: number): string {
  return `${PREFIX}${Math.round(publishedAtMicros)}`;
}

/** The publish time carried by a JSON delivery body, or undefined when the body carries none. */
export function readStamp(body: string): number | undefined {
  const at = body.indexOf(NEEDLE);
  if (at < 0) return undefined;
  const start = at + NEEDLE.length;
  const end = body.indexOf('"', start);
  if (end < 0) return undefined;
  const value = Number(body.slice(start, end));
  return Number.isFinite(value) && end > start ? value : undefined;
}
