import type { FieldProblem } from '@hookline/core';
import type { z } from 'zod';
import { filterError } from './hook-filter-form';

// The hook form's fields as the page names them, and the domain's problems ("token must not be empty") as
// sentences beside them ("Token must not be empty.").

export type HookFormField =
  | 'url'
  | 'format'
  | 'description'
  | 'auth_scheme'
  | 'bearer_token'
  | 'basic_username'
  | 'basic_password'
  | 'oauth2_token_url'
  | 'oauth2_client_id'
  | 'oauth2_client_secret'
  | 'oauth2_scope'
  | 'oauth2_audience'
  | 'oauth2_client_auth'
  | 'events'
  | 'filter'
  | 'signing'
  | 'headers'
  | 'tls_cert'
  | 'tls_key'
  | 'tls_ca';

export type FieldErrors = Partial<Record<HookFormField, string>>;

const FIELD_OF: Record<string, HookFormField> = {
  url: 'url',
  format: 'format',
  description: 'description',
  auth: 'auth_scheme',
  'auth.scheme': 'auth_scheme',
  'auth.token': 'bearer_token',
  'auth.username': 'basic_username',
  'auth.password': 'basic_password',
  'auth.token_url': 'oauth2_token_url',
  'auth.client_id': 'oauth2_client_id',
  'auth.client_secret': 'oauth2_client_secret',
  'auth.scope': 'oauth2_scope',
  'auth.audience': 'oauth2_audience',
  'auth.client_auth': 'oauth2_client_auth',
  events: 'events',
  signing: 'signing',
  headers: 'headers',
  'tls.cert': 'tls_cert',
  'tls.key': 'tls_key',
  'tls.ca': 'tls_ca',
};

const NAMES: Record<HookFormField, string> = {
  url: 'URL',
  format: 'Format',
  description: 'Description',
  auth_scheme: 'Authentication',
  bearer_token: 'Token',
  basic_username: 'Username',
  basic_password: 'Password',
  oauth2_token_url: 'Token URL',
  oauth2_client_id: 'Client ID',
  oauth2_client_secret: 'Client secret',
  oauth2_scope: 'Scope',
  oauth2_audience: 'Audience',
  oauth2_client_auth: 'Client authentication',
  events: 'Events',
  filter: 'Filter',
  signing: 'Signing',
  headers: 'Headers',
  tls_cert: 'Certificate',
  tls_key: 'Private key',
  tls_ca: 'CA certificate',
};

// The API's field name that opens each message; the page puts its own label there instead.
const LEADING_NAME =
  /^(url|format|description|token_url|client_id|client_secret|client_auth|scope|audience|token|username|password|scheme|events|signing|cert|key|ca)\s+/i;

/** Domain messages ("token must not be empty") as sentences next to the field ("Token must not be empty."). */
export function fieldErrors(problems: readonly FieldProblem[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const { field, message } of problems) {
    if (field === 'filter' || field.startsWith('filter.')) {
      errors.filter ??= filterError({ field, message });
      continue;
    }
    // A certificate given for a plain-http URL: the URL is what to change (or the certificate to leave out).
    if (field === 'tls') {
      errors.url ??=
        'URL must start with https:// to present a client certificate: use https, or leave the certificate out.';
      continue;
    }
    const name =
      FIELD_OF[field] ??
      (field.startsWith('events.') ? 'events' : field.startsWith('headers.') ? 'headers' : 'url');
    // A header's problem names the header: "Headers: X-Api-Key must be …"; each bad header is named, one
    // sentence each, since they are all on the one field.
    if (name === 'headers' && field.startsWith('headers.')) {
      const sentence = `${field.slice('headers.'.length)} ${message}${message.endsWith('.') ? '' : '.'}`;
      errors.headers = errors.headers ? `${errors.headers} ${sentence}` : `Headers: ${sentence}`;
      continue;
    }
    if (errors[name]) continue;
    const rest = message.replace(LEADING_NAME, '');
    errors[name] = `${NAMES[name]} ${rest}${rest.endsWith('.') ? '' : '.'}`;
  }
  return errors;
}

const NO_EVENTS = 'Choose at least one kind of event, or every kind.';

/** A schema's refusal as field errors; no kind ticked gets a sentence of its own. */
export function formErrors(error: z.ZodError, noEventsTicked: boolean): FieldErrors {
  const errors = fieldErrors(
    error.issues.map((issue) => ({ field: issue.path.map(String).join('.'), message: issue.message })),
  );
  if (errors.events && noEventsTicked) errors.events = NO_EVENTS;
  return errors;
}
