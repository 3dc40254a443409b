import { z } from 'zod';
import type { EventCatalog, EventKind } from './event-kinds';
import { freeTextProblem } from './text';

// A hook's filter: conditions on the event's fields, all of which must hold for the hook to get the event.
// Fields are compared as the text that is delivered (a decimal's "0.0" is the text 0.0). This file is the
// reference: the account's accept script (redis/scripts/inbox-accept.lua) evaluates the same rules where the
// fan-out picks the hooks, and hook-filter-lua.test.ts holds the two to the same answers.

export type FilterCondition =
  string | { readonly $in: readonly string[] } | { readonly $prefix: string } | { readonly $exists: boolean };

/** Field name → condition; an empty filter (or none) lets every event of the subscribed kinds through. */
export type HookFilter = Readonly<Record<string, FilterCondition>>;

export const FILTER_OPERATORS = ['$in', '$prefix', '$exists'] as const;
export const FILTER_MAX_FIELDS = 20;
export const FILTER_MAX_VALUES = 100;
const VALUE_MAX = 1024;

/** Whether an event with these fields passes `filter`. Absent fields equal nothing and start with nothing. */
export function matchesFilter(
  filter: HookFilter | undefined,
  fields: Readonly<Record<string, string>>,
): boolean {
  if (!filter) return true;
  for (const name of Object.keys(filter)) {
    const condition = filter[name]!;
    const value = Object.hasOwn(fields, name) ? fields[name] : undefined;
    if (typeof condition === 'string') {
      if (value !== condition) return false;
    } else if ('$exists' in condition) {
      if ((value !== undefined) !== condition.$exists) return false;
    } else if ('$prefix' in condition) {
      if (value === undefined || !value.startsWith(condition.$prefix)) return false;
    } else if (value === undefined || !condition.$in.includes(value)) return false;
  }
  return true;
}

/** The kinds whose fields a hook subscribed to `events` may filter on. */
export function filterableKinds(
  events: 'all' | readonly string[],
  catalog: EventCatalog,
): readonly EventKind[] {
  const kinds = catalog.producerKinds;
  // 'all' spelled out (hook.ts's ALL_EVENTS): hook.ts imports this file to build its schemas.
  return events === 'all' ? kinds : kinds.filter((kind) => events.includes(kind.name));
}

export interface FilterProblem {
  /** `filter.to` or `filter.to.$in`: the field and, when it is at fault, the operator. */
  readonly field: string;
  readonly message: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function textProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return 'must be a text (fields are compared as the text delivered)';
  if (value.length > VALUE_MAX) return `must be at most ${VALUE_MAX} characters`;
  return freeTextProblem(value);
}

function conditionProblems(at: string, condition: unknown): FilterProblem[] {
  if (!isRecord(condition)) {
    const problem = textProblem(condition);
    return problem ? [{ field: at, message: problem }] : [];
  }
  const operators = Object.keys(condition);
  if (operators.length !== 1)
    return [{ field: at, message: 'must be a text or an object with exactly one of $in, $prefix, $exists' }];
  const operator = operators[0]!;
  const value = condition[operator];
  const place = `${at}.${operator}`;
  switch (operator) {
    case '$exists':
      return typeof value === 'boolean' ? [] : [{ field: place, message: 'must be true or false' }];
    case '$prefix': {
      const problem = textProblem(value);
      return problem ? [{ field: place, message: problem }] : [];
    }
    case '$in': {
      if (!Array.isArray(value) || value.length === 0 || value.length > FILTER_MAX_VALUES)
        return [{ field: place, message: `must be a list of 1 to ${FILTER_MAX_VALUES} texts` }];
      return value.flatMap((item: unknown, i) => {
        const problem = textProblem(item);
        return problem ? [{ field: `${place}.${i}`, message: problem }] : [];
      });
    }
    default:
      return [
        {
          field: place,
          message: `is not a filter operator; use a text to match exactly, or $in, $prefix or $exists`,
        },
      ];
  }
}

/**
 * Every problem of a filter for a hook that gets `kinds`: each field must be a field of at least one of them
 * (a filter on a field no subscribed kind has could never be met), each condition one of the operators.
 */
export function filterProblems(input: unknown, kinds: readonly EventKind[]): FilterProblem[] {
  if (!isRecord(input))
    return [{ field: 'filter', message: 'must be an object of field names and conditions' }];
  const names = Object.keys(input);
  if (names.length > FILTER_MAX_FIELDS)
    return [{ field: 'filter', message: `must have at most ${FILTER_MAX_FIELDS} fields` }];
  const known = new Set(kinds.flatMap((kind) => kind.fields.map((field) => field.name)));
  const kindNames = kinds.map((kind) => kind.name).join(', ');
  return names.flatMap((name) => {
    // An empty name shown as `filter.""`: plain `filter.` read as the whole filter once the path was split.
    if (name === '')
      return [
        {
          field: 'filter.""',
          message: `a field name must not be empty; the fields are ${[...known].join(', ')}`,
        },
      ];
    const at = `filter.${name}`;
    if (!known.has(name))
      return [
        {
          field: at,
          message: `is not a field of ${kindNames || 'the kinds this hook gets'}; the fields are ${[...known].join(', ')}`,
        },
      ];
    return conditionProblems(at, input[name]);
  });
}

/** The filter with its conditions in a stable shape (what is stored), or undefined for an empty filter. */
export function normalFilter(filter: HookFilter | null | undefined): HookFilter | undefined {
  if (!filter || Object.keys(filter).length === 0) return undefined;
  return filter;
}

/**
 * The `filter` field of the hook bodies: checked against every kind of the catalogue here (the schema cannot
 * see the hook's subscription); the store checks it again against the kinds the hook gets.
 */
export function hookFilterInput(catalog: EventCatalog) {
  return z
    .unknown()
    .superRefine((value, ctx) => {
      for (const problem of filterProblems(value, catalog.producerKinds))
        ctx.addIssue({
          code: 'custom',
          // Reported at the field (and operator) at fault: `filter.to.$in`.
          path: problem.field.split('.').slice(1),
          message: problem.message,
        });
    })
    .transform((value) => value as HookFilter)
    .meta({
      description:
        'Deliver only events whose fields match: {field: text | {"$in": [texts]} | {"$prefix": text} | ' +
        '{"$exists": true|false}}; every condition must hold. Fields are compared as the delivered text',
      type: 'object',
      additionalProperties: {
        anyOf: [
          { type: 'string' },
          {
            type: 'object',
            properties: { $in: { type: 'array', items: { type: 'string' }, minItems: 1 } },
            required: ['$in'],
            additionalProperties: false,
          },
          {
            type: 'object',
            properties: { $prefix: { type: 'string' } },
            required: ['$prefix'],
            additionalProperties: false,
          },
          {
            type: 'object',
            properties: { $exists: { type: 'boolean' } },
            required: ['$exists'],
            additionalProperties: false,
          },
        ],
      },
    });
}

const quote = (text: string) => `“${text}”`;

/** A filter in words, for the website: `to is “+4420…” and from starts with “+44”`. */
export function describeFilter(filter: HookFilter | undefined): string {
  if (!filter || Object.keys(filter).length === 0) return 'every event of the kinds it subscribes to';
  return Object.entries(filter)
    .map(([name, condition]) => {
      if (typeof condition === 'string') return `${name} is ${quote(condition)}`;
      if ('$exists' in condition) return `${name} ${condition.$exists ? 'is present' : 'is absent'}`;
      if ('$prefix' in condition) return `${name} starts with ${quote(condition.$prefix)}`;
      return `${name} is one of ${condition.$in.map(quote).join(', ')}`;
    })
    .join(' and ');
}
