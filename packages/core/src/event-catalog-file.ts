import { z } from 'zod';
import { isMissing } from './zod-problems';
import {
  BUILT_IN_KINDS,
  EVENT_TYPE_FIELD,
  EventCatalog,
  FIELD_TYPES,
  STRING_FIELD_MAX,
  type EventKind,
} from './event-kinds';

// The operator's catalogue file (HOOKLINE_EVENT_CATALOG), e.g.
//   {"kinds":[{"name":"call_ended","fields":[{"name":"call_id","type":"string"},
//     {"name":"duration","type":"decimal"},{"name":"date","type":"timestamp","optional":true},
//     {"name":"callback","type":"string","personal":true}]}]}
// Parsing is pure (text in, catalogue or every problem out); reading the file is the config package's part.

// Kind names go into a header value, a form value and the routing script's comma-separated subscription
// lists, so they are kept to a plain, comma-free alphabet; dots allow families such as `call.ended`.
export const KIND_NAME = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$/;
// Field names are JSON keys and form names; kept to identifiers so every receiver's parser maps them alike.
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
// Names that would read Object.prototype's members where a plain object is indexed by field name.
const PROTOTYPE_NAMES = new Set(['__proto__', 'constructor', 'prototype']);
const BUILT_IN_NAMES = new Set(BUILT_IN_KINDS.map((kind) => kind.name));

const fieldSchema = z.strictObject({
  name: z
    .string({ error: 'must be a string' })
    .max(64, 'must be at most 64 characters')
    .regex(FIELD_NAME, 'must be letters, digits and "_", not starting with a digit')
    .refine((v) => v !== EVENT_TYPE_FIELD, 'is reserved (EventType comes first in every body by itself)')
    .refine((v) => !PROTOTYPE_NAMES.has(v), 'is reserved (a name every JavaScript object already has)'),
  type: z.enum(FIELD_TYPES, { error: `must be one of ${FIELD_TYPES.join(', ')}` }),
  optional: z.boolean({ error: 'must be true or false' }).optional(),
  /** Personal data: an erasure by number matches this field besides `from` and `to` (string fields only). */
  personal: z.boolean({ error: 'must be true or false' }).optional(),
});

const kindSchema = z.strictObject({
  name: z
    .string({ error: 'must be a string' })
    .max(64, 'must be at most 64 characters')
    .regex(
      KIND_NAME,
      'must be lower-case letters, digits and "_", in parts separated by "." (e.g. call_ended)',
    )
    .refine((v) => !BUILT_IN_NAMES.has(v), 'is a built-in kind and cannot be redefined'),
  description: z.string({ error: 'must be a string' }).max(500, 'must be at most 500 characters').optional(),
  fields: z
    .array(fieldSchema, { error: 'must be a list of fields' })
    .max(100, 'must have at most 100 fields'),
});

const fileSchema = z.strictObject({ kinds: z.array(kindSchema, { error: 'must be a list of kinds' }) });

const namesOf = (list: unknown): unknown[] =>
  Array.isArray(list) ? list.map((item) => (item as { name?: unknown } | null)?.name) : [];

/** Repeated names, found on the raw input so they are reported beside every other problem, not after. */
function repeats(input: unknown): { path: PropertyKey[]; message: string }[] {
  const found: { path: PropertyKey[]; message: string }[] = [];
  const scan = (names: unknown[], at: (i: number) => PropertyKey[], message: string) => {
    const seen = new Set<string>();
    names.forEach((name, i) => {
      if (typeof name !== 'string') return;
      if (seen.has(name)) found.push({ path: at(i), message });
      seen.add(name);
    });
  };
  const kinds = (input as { kinds?: unknown } | null)?.kinds;
  scan(namesOf(kinds), (i) => ['kinds', i, 'name'], 'repeats an earlier kind');
  if (Array.isArray(kinds))
    kinds.forEach((kind, k) =>
      scan(
        namesOf((kind as { fields?: unknown } | null)?.fields),
        (i) => ['kinds', k, 'fields', i, 'name'],
        'repeats an earlier field of this kind',
      ),
    );
  return found;
}

/**
 * Personal marks on fields that are not text: an erasure by number compares a personal field's text with the
 * number, so only a string field can be one. Found on the raw input, like repeats, beside every other problem.
 */
function misplacedPersonal(input: unknown): { path: PropertyKey[]; message: string }[] {
  const found: { path: PropertyKey[]; message: string }[] = [];
  const kinds = (input as { kinds?: unknown } | null)?.kinds;
  if (!Array.isArray(kinds)) return found;
  kinds.forEach((kind, k) => {
    const fields = (kind as { fields?: unknown } | null)?.fields;
    if (!Array.isArray(fields)) return;
    fields.forEach((field, i) => {
      const { personal, type } = (field ?? {}) as { personal?: unknown; type?: unknown };
      if (personal === true && type !== 'string' && (FIELD_TYPES as readonly unknown[]).includes(type))
        found.push({
          path: ['kinds', k, 'fields', i, 'personal'],
          message: `only a string field can be personal (this one is ${String(type)})`,
        });
    });
  });
  return found;
}

export type CatalogParse =
  | { readonly ok: true; readonly catalog: EventCatalog }
  | { readonly ok: false; readonly problems: readonly string[] };

/** `kinds[1].fields[0].type`: the place of a problem as the operator finds it in the file. */
function placeOf(path: readonly PropertyKey[], input: unknown): string {
  let place = '';
  let node: unknown = input;
  for (const key of path) {
    place += typeof key === 'number' ? `[${key}]` : `${place ? '.' : ''}${String(key)}`;
    node =
      typeof node === 'object' && node !== null ? (node as Record<PropertyKey, unknown>)[key] : undefined;
    // A kind's name helps find it in a long file.
    if (typeof key === 'number' && path[0] === 'kinds' && place === `kinds[${key}]`) {
      const name = (node as { name?: unknown } | undefined)?.name;
      if (typeof name === 'string' && name.length <= 64) place += ` (${name})`;
    }
  }
  return place || '(file)';
}

/** The catalogue a file describes (built-in kinds included), or every problem found in it. */
export function parseEventCatalog(text: string): CatalogParse {
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      problems: [`not valid JSON: ${error instanceof Error ? error.message : String(error)}`],
    };
  }
  // reportInput tells a missing field ("is required") from one of the wrong type.
  const parsed = fileSchema.safeParse(input, { reportInput: true });
  const problems = (parsed.success ? [] : parsed.error.issues).flatMap((issue) => {
    const place = placeOf(issue.path, input);
    if (issue.code === 'unrecognized_keys')
      return issue.keys.map((key) => `${place === '(file)' ? key : `${place}.${key}`}: is not a known field`);
    const message = isMissing(issue) ? 'is required' : issue.message;
    return [`${place}: ${message}`];
  });
  problems.push(
    ...[...repeats(input), ...misplacedPersonal(input)].map(
      ({ path, message }) => `${placeOf(path, input)}: ${message}`,
    ),
  );
  if (!parsed.success || problems.length > 0) return { ok: false, problems };
  const kinds = parsed.data.kinds.map((kind): EventKind => ({
    name: kind.name,
    origin: 'producer',
    builtIn: false,
    ...(kind.description !== undefined ? { description: kind.description } : {}),
    fields: kind.fields.map((field) => ({
      name: field.name,
      type: field.type,
      ...(field.optional ? { optional: true } : {}),
      ...(field.type === 'string' ? { maxLength: STRING_FIELD_MAX } : {}),
      ...(field.personal ? { personal: true } : {}),
    })),
  }));
  return { ok: true, catalog: EventCatalog.of(kinds) };
}
