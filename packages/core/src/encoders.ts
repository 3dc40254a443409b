import { wireLayout, type DeliverableEvent, type WireLayout } from './event-kinds';

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

function layout(event: DeliverableEvent): WireLayout {
  const found = wireLayout(event);
  // Job data is checked when it is read (parseDeliverJob), so this is a bug, not an input problem.
  if (!found) throw new Error(`event ${event.id}: kind ${event.type} is unknown and carries no layout`);
  return found;
}

// Own fields only: a field named like an Object.prototype member ("constructor") must not read the prototype's.
const valueOf = (event: DeliverableEvent, name: string): string | undefined =>
  Object.hasOwn(event.fields, name) ? event.fields[name] : undefined;

// Built by hand rather than with JSON.stringify(object) because a decimal must keep the producer's text (a
// JSON number token, not a string), and field order is part of the contract. A field the layout names but
// the event lacks is left out: only an absent optional field can be missing, as events are checked on entry.
export function encodeJson(event: DeliverableEvent): string {
  const parts: string[] = [];
  for (const [name, type] of layout(event)) {
    const value = valueOf(event, name);
    if (value === undefined) continue;
    parts.push(`${JSON.stringify(name)}:${type === 'decimal' ? value : JSON.stringify(value)}`);
  }
  return `{${parts.join(',')}}`;
}

// URLSearchParams implements the WHATWG x-www-form-urlencoded serializer: space as '+', ':' as %3A.
export function encodeForm(event: DeliverableEvent): string {
  const params = new URLSearchParams();
  for (const [name] of layout(event)) {
    const value = valueOf(event, name);
    if (value !== undefined) params.append(name, value);
  }
  return params.toString();
}

export function encodeEvent(event: DeliverableEvent, format: HookFormat): EncodedBody {
  return {
    contentType: CONTENT_TYPES[format],
    body: format === 'json' ? encodeJson(event) : encodeForm(event),
  };
}
