import type { z } from 'zod';
import type { FieldProblem } from './errors';

/** zod issues as field problems: every bad field is named by its dotted path. */
export function zodProblems(error: z.ZodError, root?: string): FieldProblem[] {
  return error.issues.flatMap((issue): FieldProblem[] => {
    const base = [root, ...issue.path.map(String)].filter(Boolean).join('.');
    if (issue.code === 'unrecognized_keys')
      return issue.keys.map((key) => ({
        field: base ? `${base}.${key}` : key,
        message: 'is not a known field',
      }));
    const field = base || '(body)';
    const message = isMissing(issue) ? 'is required' : issue.message;
    return [{ field, message }];
  });
}

/**
 * A field that was not given (with `reportInput`, its issue's input is undefined): "is required", whether its
 * schema checks a type or a list of values (an enum's own message, `format must be "json" or "form"`, would
 * read as if a wrong value had been given).
 */
export function isMissing(issue: z.core.$ZodIssue): boolean {
  return (issue.code === 'invalid_type' || issue.code === 'invalid_value') && issue.input === undefined;
}
