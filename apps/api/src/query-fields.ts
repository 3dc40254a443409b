import { z } from 'zod';
import { FILTER_TEXT_MAX, filterTextProblem, parseFilterTime, type FilterTextField } from '@hookline/history';

// Query-string fields several routes read the same way. A query value is text: each is read by a rule of its
// own rather than a general number or date parser, which would accept what the message says is not allowed.

/**
 * A whole number from `min` (at least 1) to `max`, written in plain decimal digits: `1e2`, `0x10`, `007` and
 * ` 5` are numbers to JavaScript's parser but not what the message asks for, so they are refused with it.
 */
export function wholeNumberQuery(min: number, max: number, fallback: number) {
  const message = `must be a whole number from ${min} to ${max}`;
  return z
    .string({ error: message })
    .regex(/^[1-9][0-9]*$/, message)
    .transform(Number)
    .pipe(z.number().min(min, message).max(max, message))
    .default(fallback);
}

/** A call id or event id to filter the history by (history's filter-values.ts: the website's rule too). */
export function filterTextQuery(field: FilterTextField) {
  return (
    z
      .string()
      .superRefine((value, ctx) => {
        const problem = filterTextProblem(field, value);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      })
      // The rule is filterTextProblem's; this only documents its bounds in the OpenAPI document.
      .meta({ minLength: 1, maxLength: FILTER_TEXT_MAX[field] })
  );
}

const SHAPE = 'must be an ISO 8601 time such as 2026-11-24T09:00:00Z';

/** `since` or `until`: an ISO 8601 time on a date the calendar has. */
export const filterTimeQuery = z.string().transform((text, ctx) => {
  const time = parseFilterTime(text);
  if ('at' in time) return time.at;
  const message =
    time.problem === 'no_such_date'
      ? `must be a date the calendar has (${text.slice(0, 10)} is not one)`
      : time.problem === 'no_zone'
        ? 'must name its zone, Z or an offset such as +01:00 (2026-11-24T09:00:00Z): a time without one means different instants on different servers'
        : SHAPE;
  ctx.addIssue({ code: 'custom', message });
  return z.NEVER;
});

/**
 * The query fields of a page of a list (the history, the audit log, the hooks): `limit` of `what`, `fallback`
 * when not given, and the `cursor` a previous page gave, read with `decode`. `order` says which way the list
 * runs (newest first, unless the list says otherwise).
 */
export function pageQuery<C>(
  what: string,
  decode: (text: string) => C | undefined,
  { fallback = 50, order = 'newest first' }: { fallback?: number; order?: string } = {},
) {
  return {
    limit: wholeNumberQuery(1, 200, fallback).describe(
      `How many ${what}, ${order} (at most 200; ${fallback} when not given)`,
    ),
    cursor: z
      .string()
      .transform((v, ctx) => {
        const cursor = decode(v);
        if (!cursor)
          ctx.addIssue({ code: 'custom', message: 'is not a cursor this API gave (use next_cursor)' });
        return cursor ?? z.NEVER;
      })
      .optional()
      .describe('next_cursor of the previous page'),
  };
}
