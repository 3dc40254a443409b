import {
  ALL_EVENTS,
  AUTH_SCHEMES,
  BUILT_IN_CATALOG,
  hookInputSchemas,
  type AuthScheme,
  type HookEvents,
  type CreateHookInput,
  type FieldProblem,
  type HookFormat,
  type HookView,
  type UpdateHookInput,
} from '@hookline/core';
import type { z } from 'zod';
import {
  filterError,
  filterOfRows,
  filterShown,
  readFilterRows,
  rowsOfFilter,
  type FilterRow,
} from './hook-filter-form';
import { HEADERS_SHOWN, headersText, parseHeadersText } from './hook-form-headers';
import { tlsFromForm } from './hook-form-tls';

/** What the hook form shows: the entered values, never a secret. */
export interface HookFormValues {
  readonly url: string;
  readonly format: HookFormat;
  readonly description: string;
  readonly scheme: AuthScheme;
  readonly username: string;
  /** `all`, or the kinds ticked. */
  readonly events: HookEvents;
  readonly signing: boolean;
  /** The filter editor's rows (hook-filter-form.ts). */
  readonly filter: readonly FilterRow[];
  /** The extra headers as typed: `Name: value` lines. */
  readonly headers: string;
}

export type HookFormField =
  | 'url'
  | 'format'
  | 'description'
  | 'auth_scheme'
  | 'bearer_token'
  | 'basic_username'
  | 'basic_password'
  | 'events'
  | 'filter'
  | 'signing'
  | 'headers'
  | 'tls_cert'
  | 'tls_key'
  | 'tls_ca';

/** The create and update schemas the forms are checked with: those of the process's event catalogue. */
export type HookSchemas = ReturnType<typeof hookInputSchemas>;
const BUILT_IN_SCHEMAS = hookInputSchemas(BUILT_IN_CATALOG);
export type FieldErrors = Partial<Record<HookFormField, string>>;

export type HookFormResult<T> =
  | { readonly ok: true; readonly input: T; readonly values: HookFormValues }
  | { readonly ok: false; readonly values: HookFormValues; readonly errors: FieldErrors };

type FormBody = Readonly<Record<string, unknown>>;
const text = (body: FormBody, name: string) => (typeof body[name] === 'string' ? (body[name] as string) : '');

export function valuesOf(hook: HookView): HookFormValues {
  return {
    url: hook.url,
    format: hook.format,
    description: hook.description ?? '',
    scheme: hook.auth.scheme,
    username: hook.auth.scheme === 'basic' ? hook.auth.username : '',
    events: hook.events,
    signing: hook.signing,
    filter: rowsOfFilter(hook.filter),
    headers: headersText(hook.headers),
  };
}

export const EMPTY_VALUES: HookFormValues = {
  url: '',
  format: 'json',
  description: '',
  scheme: 'none',
  username: '',
  events: ALL_EVENTS,
  signing: false,
  filter: [],
  headers: '',
};

// A repeated checkbox arrives as a string (one ticked) or an array (several).
const list = (value: unknown): string[] =>
  (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');

/**
 * Unticked checkboxes send nothing, so the form says that it showed them (a hidden field): a form without
 * them (an older page still open) leaves the subscription and signing as they are.
 */
const hasChoices = (body: FormBody) => text(body, 'events_signing_shown') === '1';

/**
 * "Every kind" (also kinds added later) only while every kind shown is ticked too, or none is: a kind unticked
 * beside it is a choice, and the hook then gets exactly the kinds left ticked.
 */
function eventsOf(body: FormBody): HookFormValues['events'] {
  if (!hasChoices(body)) return ALL_EVENTS;
  const ticked = list(body.events);
  if (text(body, 'events_all') !== '1') return ticked;
  const offered = Number(text(body, 'events_offered'));
  const allTicked = ticked.length === 0 || !Number.isInteger(offered) || ticked.length >= offered;
  return allTicked ? ALL_EVENTS : ticked;
}

function readValues(body: FormBody): HookFormValues {
  const scheme = text(body, 'auth_scheme');
  return {
    url: text(body, 'url').trim(),
    format: text(body, 'format') === 'form' ? 'form' : 'json',
    description: text(body, 'description').trim(),
    scheme: (AUTH_SCHEMES as readonly string[]).includes(scheme) ? (scheme as AuthScheme) : 'none',
    username: text(body, 'basic_username'),
    events: eventsOf(body),
    signing: text(body, 'signing') === '1',
    filter: readFilterRows(body),
    headers: text(body, 'headers'),
  };
}

/** The headers to send with the form's candidate: only from a form that showed them; a line problem as an error. */
function headersFrom(
  body: FormBody,
  values: HookFormValues,
): { headers?: Record<string, string>; problem?: string } {
  if (text(body, HEADERS_SHOWN) !== '1') return {};
  const parsed = parseHeadersText(values.headers);
  return parsed.ok ? { headers: parsed.headers } : { problem: `Headers: ${parsed.problem}.` };
}

function authFrom(body: FormBody, values: HookFormValues) {
  switch (values.scheme) {
    case 'none':
      return { scheme: 'none' as const };
    case 'bearer':
      return { scheme: 'bearer' as const, token: text(body, 'bearer_token').trim() };
    case 'basic':
      return { scheme: 'basic' as const, username: values.username, password: text(body, 'basic_password') };
    case 'oauth2':
      // Set and changed through the API only: the form has no fields for it.
      return undefined;
  }
}

const FIELD_OF: Record<string, HookFormField> = {
  url: 'url',
  format: 'format',
  description: 'description',
  auth: 'auth_scheme',
  'auth.scheme': 'auth_scheme',
  'auth.token': 'bearer_token',
  'auth.username': 'basic_username',
  'auth.password': 'basic_password',
  events: 'events',
  signing: 'signing',
  headers: 'headers',
  tls: 'tls_cert',
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
  events: 'Events',
  filter: 'Filter',
  signing: 'Signing',
  headers: 'Headers',
  tls_cert: 'Certificate',
  tls_key: 'Private key',
  tls_ca: 'CA certificate',
};

/** Domain messages ("token must not be empty") as sentences next to the field ("Token must not be empty."). */
export function fieldErrors(problems: readonly FieldProblem[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const { field, message } of problems) {
    if (field === 'filter' || field.startsWith('filter.')) {
      errors.filter ??= filterError({ field, message });
      continue;
    }
    const name =
      FIELD_OF[field] ??
      (field.startsWith('events.') ? 'events' : field.startsWith('headers.') ? 'headers' : 'url');
    if (errors[name]) continue;
    // A header's problem names the header: "Headers: X-Api-Key must be …".
    if (name === 'headers' && field.startsWith('headers.')) {
      errors.headers = `Headers: ${field.slice('headers.'.length)} ${message}${message.endsWith('.') ? '' : '.'}`;
      continue;
    }
    const rest = message.replace(
      /^(url|format|description|token|username|password|scheme|events|signing|cert|key|ca)\s+/i,
      '',
    );
    errors[name] = `${NAMES[name]} ${rest}${rest.endsWith('.') ? '' : '.'}`;
  }
  return errors;
}

const NO_EVENTS = 'Choose at least one kind of event, or every kind.';

function formErrors(error: z.ZodError, values: HookFormValues): FieldErrors {
  const errors = fieldErrors(issuesOf(error));
  if (errors.events && Array.isArray(values.events) && values.events.length === 0) errors.events = NO_EVENTS;
  return errors;
}

function issuesOf(error: z.ZodError): FieldProblem[] {
  return error.issues.map((issue) => ({ field: issue.path.map(String).join('.'), message: issue.message }));
}

export function parseCreateForm(
  body: FormBody,
  schemas: HookSchemas = BUILT_IN_SCHEMAS,
): HookFormResult<CreateHookInput> {
  const values = readValues(body);
  const candidate = {
    url: values.url,
    format: values.format,
    auth: authFrom(body, values),
    ...(values.description ? { description: values.description } : {}),
    ...(hasChoices(body) ? { events: values.events } : {}),
    ...(filterShown(body) && values.filter.length > 0 ? { filter: filterOfRows(values.filter) } : {}),
    ...(values.signing ? { signing: true } : {}),
  };
  const extra = headersFrom(body, values);
  if (extra.problem) return { ok: false, values, errors: { headers: extra.problem } };
  if (extra.headers && Object.keys(extra.headers).length > 0)
    Object.assign(candidate, { headers: extra.headers });
  const parsed = schemas.create.safeParse(candidate);
  if (!parsed.success) return { ok: false, values, errors: formErrors(parsed.error, values) };
  return { ok: true, input: parsed.data, values };
}

/**
 * Secrets are write-only, so the edit form starts with empty secret fields: left empty under the same
 * scheme, the stored credentials stay. Changing a Basic username needs the password again because the
 * site cannot read the stored one.
 */
export function parseUpdateForm(
  body: FormBody,
  current: HookView,
  schemas: HookSchemas = BUILT_IN_SCHEMAS,
): HookFormResult<UpdateHookInput> {
  const values = readValues(body);
  const auth = authFrom(body, values);
  const same = current.auth.scheme === values.scheme;
  // An OAuth 2.0 hook's form shows no scheme chosen: saved as it is, its settings stay (the API changes them).
  let keepAuth = !auth || (current.auth.scheme === 'oauth2' && text(body, 'auth_scheme') === '');
  if (same && auth?.scheme === 'bearer' && auth.token === '') keepAuth = true;
  if (same && auth?.scheme === 'basic' && auth.password === '') {
    if (current.auth.scheme === 'basic' && current.auth.username !== values.username)
      return {
        ok: false,
        values,
        errors: { basic_password: 'Enter the password again to change the username.' },
      };
    keepAuth = true;
  }
  const candidate = {
    url: values.url,
    format: values.format,
    description: values.description === '' ? null : values.description,
    ...(keepAuth ? {} : { auth }),
    // Only a change of signing is sent: ticked on a hook that signs already is not a request for a secret.
    ...(hasChoices(body)
      ? { events: values.events, ...(values.signing !== current.signing ? { signing: values.signing } : {}) }
      : {}),
    ...(filterShown(body) ? { filter: filterOfRows(values.filter) ?? null } : {}),
  };
  const extra = headersFrom(body, values);
  if (extra.problem) return { ok: false, values, errors: { headers: extra.problem } };
  if (extra.headers) Object.assign(candidate, { headers: extra.headers });
  const tls = tlsFromForm(body);
  if (tls !== undefined) Object.assign(candidate, { tls });
  const parsed = schemas.update.safeParse(candidate);
  if (!parsed.success) return { ok: false, values, errors: formErrors(parsed.error, values) };
  return { ok: true, input: parsed.data, values };
}

/**
 * The fields of an update that change something: the activity feed then says what changed, not every field
 * of the form. New credentials always count (the stored ones cannot be compared); "none" again does not.
 */
export function onlyChanges(input: UpdateHookInput, current: HookView): Partial<UpdateHookInput> {
  const changed: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(input)) {
    const before = (current as unknown as Record<string, unknown>)[name];
    const same =
      name === 'auth'
        ? (value as { scheme: string }).scheme === 'none' && current.auth.scheme === 'none'
        : name === 'description'
          ? (value ?? undefined) === (before ?? undefined)
          : // No filter or headers given and none kept are the same, whichever empty form each takes.
            (isEmpty(value) && isEmpty(before)) || JSON.stringify(value) === JSON.stringify(before);
    if (!same) changed[name] = value;
  }
  return changed as Partial<UpdateHookInput>;
}

function isEmpty(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    (typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0)
  );
}
