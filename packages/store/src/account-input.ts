import { freeTextProblem, validationError, type FieldProblem } from '@hookline/core';
import type { CreateAccountInput } from './contracts';

// The API validates request shapes with zod first; these checks keep the store from storing garbage when it
// is called some other way (the website, scripts, tests).
export const NAME_MAX = 200;
export const EMAIL_MAX = 254;
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 1024;

// A loose shape on purpose (a local part, an @ and a dotted domain, no spaces): the address is proved by the
// mail that reaches it, and a stricter pattern refuses real ones (internationalised addresses, `+` tags).
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Whether a trimmed address has an email's shape; the one check the API and the store both apply. */
export const isEmailAddress = (email: string): boolean =>
  email.length <= EMAIL_MAX && EMAIL_SHAPE.test(email);

/** Emails are unique case-insensitively: stored and looked up trimmed and lowercased. */
export const normaliseEmail = (email: string): string => email.trim().toLowerCase();

export interface ValidAccountInput {
  readonly name: string;
  readonly email?: string;
  readonly password?: string;
}

export function validateAccountInput(input: CreateAccountInput): ValidAccountInput {
  const problems: FieldProblem[] = [];
  const name = typeof input.name === 'string' ? input.name.trim() : '';
  if (name.length < 1 || name.length > NAME_MAX)
    problems.push({ field: 'name', message: `must be 1 to ${NAME_MAX} characters` });
  else if (freeTextProblem(name)) problems.push({ field: 'name', message: freeTextProblem(name)! });
  let email: string | undefined;
  if (input.email !== undefined) {
    email = typeof input.email === 'string' ? normaliseEmail(input.email) : '';
    if (!isEmailAddress(email)) problems.push({ field: 'email', message: 'must be an email address' });
  }
  if (input.password !== undefined) {
    const problem = passwordProblem(input.password);
    if (problem) problems.push({ field: 'password', message: problem });
    // Signing in takes both: a password without an address would be stored for nobody to use.
    else if (email === undefined)
      problems.push({ field: 'password', message: 'needs an email: the customer signs in with both' });
  }
  if (problems.length > 0) throw validationError(problems);
  return {
    name,
    ...(email !== undefined ? { email } : {}),
    ...(input.password !== undefined ? { password: input.password } : {}),
  };
}

export function passwordProblem(password: unknown): string | undefined {
  if (typeof password !== 'string') return 'must be a string';
  if (password.length < PASSWORD_MIN) return `must be at least ${PASSWORD_MIN} characters`;
  if (password.length > PASSWORD_MAX) return `must be at most ${PASSWORD_MAX} characters`;
  // Typed again at every sign-in: what cannot be typed, or would be stored as something else, is refused.
  return freeTextProblem(password);
}
