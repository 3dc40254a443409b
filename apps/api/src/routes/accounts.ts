import { z } from 'zod';
import { EMAIL_MAX, isEmailAddress, NAME_MAX, PASSWORD_MAX, PASSWORD_MIN } from '@hookline/store';
import { auditRecorder } from '../audit';
import type { ApiDeps } from '../deps';
import { defineRoute, type Route } from '../route';

export const createAccountBody = z.strictObject({
  name: z.string().trim().min(1, 'must not be empty').max(NAME_MAX, `must be at most ${NAME_MAX} characters`),
  // The store's own check, so the API refuses no address the store and the website accept.
  email: z
    .string()
    .trim()
    .max(EMAIL_MAX, `must be at most ${EMAIL_MAX} characters`)
    .refine(isEmailAddress, 'must be an email address')
    .meta({ format: 'email' })
    .optional(),
  password: z
    .string()
    .min(PASSWORD_MIN, `must be at least ${PASSWORD_MIN} characters`)
    .max(PASSWORD_MAX, `must be at most ${PASSWORD_MAX} characters`)
    .optional()
    .describe('Lets the customer sign in to the website; stored hashed, never shown again'),
});

const createdAccount = z.object({ id: z.string(), name: z.string() });

export function accountRoutes(deps: ApiDeps): Route[] {
  const record = auditRecorder(deps);
  return [
    defineRoute({
      operationId: 'createAccount',
      method: 'POST',
      path: '/v1/accounts',
      summary: 'Create an account (a customer)',
      tag: 'accounts',
      scope: 'none',
      body: createAccountBody,
      otherErrors: ['CONFLICT'],
      responses: { 201: { description: 'The account was created', schema: createdAccount } },
    })(async ({ body, request }) => {
      const account = await deps.store.accounts.create(body);
      await record(request, {
        account_id: account.id,
        action: 'account.created',
        detail: { sign_in: body.email !== undefined && body.password !== undefined },
      });
      return { status: 201, body: { id: account.id, name: account.name } };
    }),
  ];
}
