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
    const message =
      issue.code === 'invalid_type' && issue.input === undefined ? 'is required' : issue.message;
    return [{ field, message }];
  });
}
