import { z } from 'zod';
import { DECIMAL_RULE, decimalTextFromNumber, isDecimalText } from './decimal';
import { BUILT_IN_CATALOG, type EventCatalog, type EventField, type EventKind } from './event-kinds';
import { freeTextProblem } from './text';
import { eventTimestampProblem, isEventTimestamp } from './timestamp';

// A lossless JSON parser hands numbers over as objects carrying their source text; accepting that shape
// here (without depending on the parser) is what lets `"rate": 0.0` reach the endpoint as 0.0.
interface NumberWithSource {
  readonly isLosslessNumber: true;
  readonly value: string;
}
const isNumberWithSource = (v: unknown): v is NumberWithSource =>
  typeof v === 'object' && v !== null && (v as NumberWithSource).isLosslessNumber === true;

export const idempotencyKey = z
  .string()
  .min(1, 'must not be empty')
  .max(200, 'must be at most 200 characters')
  .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces');

/** An event as a producer publishes it, once checked: every data value as text, keys in the kind's order. */
export interface PublishEventInput {
  readonly type: string;
  readonly id?: string;
  readonly data: Readonly<Record<string, string>>;
}

// Event fields reach customers as given, so they are refused at the door when they could not be (text.ts).
function textSchema(field: EventField) {
  const max = field.maxLength ?? Number.MAX_SAFE_INTEGER;
  let schema = z
    .string()
    .max(max, `must be at most ${max} characters`)
    .superRefine((v, ctx) => {
      const problem = freeTextProblem(v);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    });
  if (field.minLength) schema = schema.min(field.minLength, 'must not be empty');
  return schema;
}

/**
 * How a decimal field is documented in JSON Schema. zod sees only "a string" (the preprocess step turns a
 * JSON number into its text), so the OpenAPI generator puts this in place of what zod makes of a schema
 * marked `DECIMAL_MARK`.
 */
export const DECIMAL_JSON_SCHEMA = {
  description:
    'Decimal, as a JSON number or a string, at most 31 digits before the point and 30 after; its text is ' +
    'delivered as given (0.0 stays 0.0)',
  anyOf: [{ type: 'number' }, { type: 'string', pattern: '^-?(0|[1-9][0-9]{0,30})(\\.[0-9]{1,30})?$' }],
} as const;
export const DECIMAL_MARK = 'x-hookline-decimal';

const decimalSchema = z
  .preprocess(
    (value) => {
      if (isNumberWithSource(value)) return value.value;
      if (typeof value === 'number') return decimalTextFromNumber(value) ?? String(value);
      return value;
    },
    z.string({ error: 'must be a decimal number or decimal string' }).refine(isDecimalText, DECIMAL_RULE),
  )
  .meta({ [DECIMAL_MARK]: true });

const timestampSchema = z
  .string()
  .superRefine((text, ctx) => {
    const problem = eventTimestampProblem(text);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .meta({
    pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{7}$',
    description: 'YYYY-MM-DDThh:mm:ss.fffffff (UTC, no zone)',
  });

function fieldSchema(field: EventField): z.ZodType {
  const schema =
    field.type === 'decimal'
      ? decimalSchema
      : field.type === 'timestamp'
        ? timestampSchema
        : textSchema(field);
  return field.optional ? schema.optional() : schema;
}

/** The `data` object of one kind: its declared fields, nothing else. */
export function eventDataSchema(kind: EventKind) {
  return z.strictObject(Object.fromEntries(kind.fields.map((field) => [field.name, fieldSchema(field)])));
}

/**
 * The publish body for the kinds producers may publish: one object shape per kind, told apart by `type`. It
 * validates and, converted to JSON Schema, documents each kind in the OpenAPI document.
 */
export function publishEventSchema(catalog: EventCatalog) {
  const kinds = catalog.producerKinds;
  const names = kinds.map((kind) => `"${kind.name}"`).join(', ');
  const options = kinds.map((kind) =>
    z
      .strictObject({
        type: z.literal(kind.name),
        id: idempotencyKey
          .optional()
          .describe('Idempotency key: the same id within 24 h is accepted only once'),
        data: eventDataSchema(kind),
      })
      .meta({ title: kind.name, ...(kind.description ? { description: kind.description } : {}) }),
  );
  return z.discriminatedUnion(
    'type',
    options as unknown as [(typeof options)[number], ...(typeof options)[number][]],
    {
      // The union's issue is the body's: a body without `type` is told so, as any missing field is.
      error: (issue) => {
        if (issue.code !== 'invalid_union') return undefined;
        const given = typeof issue.input === 'object' && issue.input !== null && 'type' in issue.input;
        if (!given) return 'is required';
        // A kind of hookline's own (hook.failing, …) is known but not a producer's: say why it is refused.
        const type = (issue.input as { type: unknown }).type;
        const own = typeof type === 'string' && catalog.get(type) && !catalog.isPublishable(type);
        return own
          ? `"${type}" is a notice hookline sends itself and cannot be published; type must be one of ${names}`
          : `type must be one of ${names}`;
      },
    },
  ) as unknown as z.ZodType<PublishEventInput, unknown>;
}

/** The body schema of a process without a catalogue file (call_created only). */
export const publishEventInput = publishEventSchema(BUILT_IN_CATALOG);

/** Dotted paths of every decimal field, whose JSON numbers must reach the schema with their source text. */
export function decimalPaths(catalog: EventCatalog): string[] {
  const paths = catalog.producerKinds.flatMap((kind) =>
    kind.fields.filter((f) => f.type === 'decimal').map((f) => `data.${f.name}`),
  );
  return [...new Set(paths)];
}

const IDEMPOTENCY_KEY = /^[\x21-\x7e]+$/;

// Only a plain object, as JSON.parse makes them: one whose prototype was swapped (a "__proto__" key set as
// the prototype) could lend fields the schema, which sees own keys only, would not find.
const isPlainRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' &&
  v !== null &&
  (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null);

const isText = (v: unknown, field: EventField): v is string =>
  typeof v === 'string' &&
  v.length >= (field.minLength ?? 0) &&
  v.length <= (field.maxLength ?? Number.MAX_SAFE_INTEGER) &&
  freeTextProblem(v) === undefined;

function decimalOf(value: unknown): string | undefined {
  const text = isNumberWithSource(value)
    ? value.value
    : typeof value === 'number'
      ? (decimalTextFromNumber(value) ?? String(value))
      : value;
  return typeof text === 'string' && isDecimalText(text) ? text : undefined;
}

function valueOf(field: EventField, value: unknown): string | undefined {
  switch (field.type) {
    case 'string':
      return isText(value, field) ? value : undefined;
    case 'decimal':
      return decimalOf(value);
    case 'timestamp':
      return typeof value === 'string' && isEventTimestamp(value) ? value : undefined;
  }
}

/**
 * What `publishEventSchema(catalog)` makes of a body it accepts, without zod: the same object, keys in the
 * kind's order. Validating with zod cost more than anything else the API does per published event. Undefined
 * for any body it does not accept, which the schema then judges (and words the errors for); undefined values
 * are left to the schema too (JSON has none). publish-input.test.ts holds the two to the same answers.
 */
export function publishAcceptor(catalog: EventCatalog) {
  const kinds = new Map(catalog.producerKinds.map((kind) => [kind.name, kind]));
  const known = new Map(
    [...kinds.values()].map((kind) => [kind.name, new Set(kind.fields.map((f) => f.name))]),
  );
  return function acceptPublishEventInput(body: unknown): PublishEventInput | undefined {
    if (!isPlainRecord(body) || typeof body.type !== 'string' || !isPlainRecord(body.data)) return undefined;
    const kind = Object.hasOwn(body, 'type') ? kinds.get(body.type) : undefined;
    if (!kind) return undefined;
    for (const key of Object.keys(body))
      if (key !== 'type' && key !== 'id' && key !== 'data') return undefined;
    const { id, data } = body;
    if (
      Object.hasOwn(body, 'id') &&
      !(typeof id === 'string' && id.length <= 200 && IDEMPOTENCY_KEY.test(id))
    )
      return undefined;
    const names = known.get(kind.name)!;
    for (const key of Object.keys(data)) if (!names.has(key)) return undefined;
    const fields: Record<string, string> = {};
    for (const field of kind.fields) {
      if (!Object.hasOwn(data, field.name)) {
        if (field.optional) continue;
        return undefined;
      }
      const value = valueOf(field, data[field.name]);
      if (value === undefined) return undefined;
      fields[field.name] = value;
    }
    return { type: kind.name, ...(Object.hasOwn(body, 'id') ? { id: id as string } : {}), data: fields };
  };
}

/** The acceptor of a process without a catalogue file (call_created only). */
export const acceptPublishEventInput = publishAcceptor(BUILT_IN_CATALOG);
