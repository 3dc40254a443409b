import { z } from 'zod';
import type { MaskedAuth } from './auth';
import type { HookFormat } from './encoders';

// Header values must not smuggle CR/LF or other controls into the Authorization header.
const headerSafe = (field: string) =>
  z
    .string()
    .min(1, `${field} must not be empty`)
    .max(4096, `${field} must be at most 4096 characters`)
    .refine(
      (v) => /^[\x20-\x7e\u0080-\uffff]*$/.test(v) && !/[\r\n]/.test(v),
      `${field} must not contain control characters`,
    );

export const hookAuthInput = z.discriminatedUnion(
  'scheme',
  [
    z.strictObject({ scheme: z.literal('none') }),
    z.strictObject({
      scheme: z.literal('bearer'),
      token: headerSafe('token').refine((v) => !/\s/.test(v), 'token must not contain spaces'),
    }),
    z.strictObject({
      scheme: z.literal('basic'),
      username: headerSafe('username').refine(
        (v) => !v.includes(':'),
        'username must not contain ":" (RFC 7617)',
      ),
      password: headerSafe('password'),
    }),
  ],
  { error: 'scheme must be one of none, bearer, basic' },
);

export const hookUrl = z
  .string({ error: 'url is required' })
  .max(2048, 'url must be at most 2048 characters')
  .superRefine((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'url must be an absolute http:// or https:// URL' });
      return;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      ctx.addIssue({ code: 'custom', message: 'url must use http or https' });
    if (url.username || url.password)
      ctx.addIssue({ code: 'custom', message: 'url must not contain user-info; use auth instead' });
    if (url.hash) ctx.addIssue({ code: 'custom', message: 'url must not contain a #fragment' });
  });

export const hookFormat = z.enum(['json', 'form'], { error: 'format must be "json" or "form"' });
const description = z.string().max(500, 'description must be at most 500 characters');

export const createHookInput = z.strictObject({
  url: hookUrl,
  format: hookFormat,
  auth: hookAuthInput.default({ scheme: 'none' }),
  description: description.optional(),
});
// The input shape (auth may be omitted: it defaults to none); the store parses it again with the schema.
export type CreateHookInput = z.input<typeof createHookInput>;

export const updateHookInput = z
  .strictObject({
    url: hookUrl.optional(),
    format: hookFormat.optional(),
    auth: hookAuthInput.optional(),
    description: description.nullable().optional(),
  })
  .refine((v) => Object.keys(v).length > 0, 'give at least one of url, format, auth, description');
export type UpdateHookInput = z.infer<typeof updateHookInput>;

export type HookState = 'active' | 'suspended';

/** What happens to a suspended hook's held events when it is re-enabled. */
export type HeldChoice = 'deliver' | 'discard';

/** A hook as the API and the website show it: credentials masked, state read from the queue's paused flag. */
export interface HookView {
  readonly id: string;
  readonly account_id: string;
  readonly url: string;
  readonly format: HookFormat;
  readonly auth: MaskedAuth;
  readonly description?: string;
  readonly state: HookState;
  readonly suspended_at?: string;
  readonly suspended_reason?: string;
  readonly created_at: string;
  readonly updated_at: string;
  /** True when credentials go to a plain http:// URL: allowed, but shown as a warning. */
  readonly insecure_credentials: boolean;
}
