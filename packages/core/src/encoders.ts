import type { DeliverableEvent } from './event-kinds';
import { EVENT_KINDS } from './event-kinds';

export type HookFormat = 'json' | 'form';
export const HOOK_FORMATS = ['json', 'form'] as const;

export interface EncodedBody {
  readonly contentType: string;
  readonly body: string;
}

export const CONTENT_TYPES: Readonly<Record<HookFormat, string>> = {
  json: 'application/json; charset=utf-8',
  form: 'application/x-www-form-urlencoded',
};

// Built by hand rather than with JSON.stringify(object) because `rate` must keep the producer's decimal
// text (a JSON number token, not a string), and field order is part of the contract.
export function encodeJson(event: DeliverableEvent): string {
  const parts = EVENT_KINDS[event.type].fields.map(({ name, kind }) => {
    const value = event.fields[name] ?? '';
    return `${JSON.stringify(name)}:${kind === 'decimal' ? value : JSON.stringify(value)}`;
  });
  return `{${parts.join(',')}}`;
}

// URLSearchParams implements the WHATWG x-www-form-urlencoded serializer: space as '+', ':' as %3A.
export function encodeForm(event: DeliverableEvent): string {
  const params = new URLSearchParams();
  for (const { name } of EVENT_KINDS[event.type].fields) params.append(name, event.fields[name] ?? '');
  return params.toString();
}

export function encodeEvent(event: DeliverableEvent, format: HookFormat): EncodedBody {
  return {
    contentType: CONTENT_TYPES[format],
    body: format === 'json' ? encodeJson(event) : encodeForm(event),
  };
}
