import {
  ALL_EVENTS,
  BUILT_IN_CATALOG,
  hookInputSchemas,
  type HookEvents,
  type CreateHookInput,
  type HookFormat,
  type HookView,
  type UpdateHookInput,
} from '@hookline/core';
import type { z } from 'zod';
import {
  filterOfRows,
  filterRowsProblem,
  filterShown,
  readFilterRows,
  rowsOfFilter,
  type FilterRow,
} from './hook-filter-form';
import {
  authChange,
  authFrom,
  authValuesOf,
  EMPTY_OAUTH2,
  readAuthValues,
  untypedPassword,
  type AuthValues,
} from './hook-form-auth';
import { formErrors, type FieldErrors } from './hook-form-errors';
import { HEADERS_SHOWN, headersText, parseHeadersText } from './hook-form-headers';
import { tlsFromForm, typedCertificates } from './hook-form-tls';

export { fieldErrors, type FieldErrors, type HookFormField } from './hook-form-errors';

/** What the hook form shows: the entered values, never a secret. */
export interface HookFormValues extends AuthValues {
  readonly url: string;
  readonly format: HookFormat;
  readonly description: string;
  /** `all`, or the kinds ticked. */
  readonly events: HookEvents;
  readonly signing: boolean;
  /** The filter editor's rows (hook-filter-form.ts). */
  readonly filter: readonly FilterRow[];
  /** The extra headers as typed: `Name: value` lines. */
  readonly headers: string;
  /** The client certificate and CA as typed, shown again on a refusal (public; the key never is). */
  readonly tls?: { readonly cert: string; readonly ca: string };
}

/** The create and update schemas the forms are checked with: those of the process's event catalogue. */
export type HookSchemas = ReturnType<typeof hookInputSchemas>;
const BUILT_IN_SCHEMAS = hookInputSchemas(BUILT_IN_CATALOG);

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
    ...authValuesOf(hook.auth),
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
  noPassword: false,
  username: '',
  oauth2: EMPTY_OAUTH2,
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
  return {
    url: text(body, 'url').trim(),
    format: text(body, 'format') === 'form' ? 'form' : 'json',
    description: text(body, 'description').trim(),
    ...readAuthValues(body),
    events: eventsOf(body),
    signing: text(body, 'signing') === '1',
    filter: readFilterRows(body),
    headers: text(body, 'headers'),
    ...typedCertificates(body),
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

const noneTicked = (values: HookFormValues) => Array.isArray(values.events) && values.events.length === 0;

/**
 * The form's own problems, found before the schema's (a headers line that is not `Name: value`, filter rows
 * that cannot make a filter): reported beside every other field's, never instead of them.
 */
function formProblems(headers: { problem?: string }, values: HookFormValues): FieldErrors {
  const filter = filterRowsProblem(values.filter);
  return { ...(headers.problem ? { headers: headers.problem } : {}), ...(filter ? { filter } : {}) };
}

/** The schema's refusal, the untyped password's and the form's own, together; none when all are fine. */
function allErrors(
  parsed: { success: true } | { success: false; error: z.ZodError },
  values: HookFormValues,
  ...more: FieldErrors[]
): FieldErrors {
  return Object.assign(parsed.success ? {} : formErrors(parsed.error, noneTicked(values)), ...more);
}

export function parseCreateForm(
  body: FormBody,
  schemas: HookSchemas = BUILT_IN_SCHEMAS,
): HookFormResult<CreateHookInput> {
  const values = readValues(body);
  const extra = headersFrom(body, values);
  const own = formProblems(extra, values);
  const candidate = {
    url: values.url,
    format: values.format,
    auth: authFrom(body, values),
    ...(values.description ? { description: values.description } : {}),
    ...(hasChoices(body) ? { events: values.events } : {}),
    ...(filterShown(body) && values.filter.length > 0 && !own.filter
      ? { filter: filterOfRows(values.filter) }
      : {}),
    ...(values.signing ? { signing: true } : {}),
  };
  if (extra.headers && Object.keys(extra.headers).length > 0)
    Object.assign(candidate, { headers: extra.headers });
  // A new hook has no certificate to remove: only one given is sent.
  const tls = tlsFromForm(body);
  if (tls) Object.assign(candidate, { tls });
  const untyped = untypedPassword(candidate.auth, values, body);
  const parsed = schemas.create.safeParse(candidate);
  const errors = allErrors(parsed, values, untyped, own);
  if (!parsed.success || Object.keys(errors).length > 0) return { ok: false, values, errors };
  return { ok: true, input: parsed.data, values };
}

/**
 * Secrets are write-only, so the edit form starts with empty secret fields: left empty under the same
 * scheme, the stored credentials stay (hook-form-auth.ts says when a change needs the secret again).
 */
export function parseUpdateForm(
  body: FormBody,
  current: HookView,
  schemas: HookSchemas = BUILT_IN_SCHEMAS,
): HookFormResult<UpdateHookInput> {
  const values = readValues(body);
  const extra = headersFrom(body, values);
  const own = formProblems(extra, values);
  const change = authChange(body, values, current.auth);
  if ('errors' in change) return { ok: false, values, errors: { ...change.errors, ...own } };
  const candidate = {
    url: values.url,
    format: values.format,
    description: values.description === '' ? null : values.description,
    ...(change.keep ? {} : { auth: change.auth }),
    // Only a change of signing is sent: ticked on a hook that signs already is not a request for a secret.
    ...(hasChoices(body)
      ? { events: values.events, ...(values.signing !== current.signing ? { signing: values.signing } : {}) }
      : {}),
    ...(filterShown(body) && !own.filter ? { filter: filterOfRows(values.filter) ?? null } : {}),
  };
  if (extra.headers) Object.assign(candidate, { headers: extra.headers });
  const tls = tlsFromForm(body);
  if (tls !== undefined) Object.assign(candidate, { tls });
  const untyped = untypedPassword(change.keep ? undefined : change.auth, values, body);
  const parsed = schemas.update.safeParse(candidate);
  const errors = allErrors(parsed, values, untyped, own);
  if (!parsed.success || Object.keys(errors).length > 0) return { ok: false, values, errors };
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
