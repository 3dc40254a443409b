// The one error catalogue: stable codes, each with its HTTP status. Domain code throws HooklineError only
// for conditions a caller must be told about; the API turns it into {error:{code,message,details}}.
export const ERROR_CATALOGUE = {
  VALIDATION_FAILED: 400,
  INVALID_JSON: 400,
  /** Bytes Node's HTTP parser cannot read as a request. */
  MALFORMED_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  /** A path a route serves, asked with a method none of its routes takes; the answer's `Allow` lists them. */
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  IDEMPOTENCY_CONFLICT: 409,
  /** A request not received within the HTTP tier's header and request deadlines. */
  REQUEST_TIMEOUT: 408,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  /** Request headers (the path and query included) over Node's 16 KiB. */
  HEADERS_TOO_LARGE: 431,
  INTERNAL: 500,
  PROBE_FAILED: 409,
  REDIS_UNAVAILABLE: 503,
  HISTORY_UNAVAILABLE: 503,
  /** A worker's or monitor's /readyz while it stops (SIGTERM): it takes no new work. The HTTP tier never says it. */
  STOPPING: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export interface FieldProblem {
  /** Dotted path of the offending field, e.g. `data.rate` or `auth.token`. */
  readonly field: string;
  readonly message: string;
}

export class HooklineError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: readonly FieldProblem[],
    /** Beside `error` in the answer, for an error that carries a result (a failed probe's attempt). */
    readonly extra?: Readonly<Record<string, unknown>>,
  ) {
    super(message);
    this.name = 'HooklineError';
    this.status = ERROR_CATALOGUE[code];
  }

  toBody(): { error: { code: ErrorCode; message: string; details?: readonly FieldProblem[] } } {
    return {
      ...this.extra,
      error: { code: this.code, message: this.message, ...(this.details ? { details: this.details } : {}) },
    };
  }
}

export function validationError(details: readonly FieldProblem[]): HooklineError {
  const fields = [...new Set(details.map((d) => d.field))];
  const named = fields.slice(0, NAMED_MAX).join(', ');
  const more = fields.length > NAMED_MAX ? ` and ${fields.length - NAMED_MAX} more` : '';
  const shown =
    details.length > DETAILS_MAX
      ? [
          ...details.slice(0, DETAILS_MAX),
          { field: '(more)', message: `${details.length - DETAILS_MAX} more problems are not listed` },
        ]
      : details;
  return new HooklineError('VALIDATION_FAILED', `Invalid request: ${named}${more}`, shown);
}

// A body of 64 KiB can hold thousands of unknown fields: the answer names enough to act on, not all of them
// (a 59 KB request had a 346 KB answer).
const NAMED_MAX = 20;
const DETAILS_MAX = 100;

export const notFound = (what: string): HooklineError => new HooklineError('NOT_FOUND', `${what} not found`);

/** What every front door answers while Redis cannot serve it (503, with a retry time beside it). */
export const redisUnavailable = (): HooklineError =>
  new HooklineError('REDIS_UNAVAILABLE', 'The service cannot reach Redis, its queue store; retry shortly');

/** What the history's routes answer while PostgreSQL cannot serve them (503, with a retry time beside it). */
export const historyUnavailable = (): HooklineError =>
  new HooklineError('HISTORY_UNAVAILABLE', 'The delivery history cannot be read right now; retry shortly');

/**
 * What the audit log's route answers while PostgreSQL cannot serve it: the same code and retry time as the
 * history's (the database is the same), in words that name what the caller asked for.
 */
export const auditUnavailable = (): HooklineError =>
  new HooklineError('HISTORY_UNAVAILABLE', 'The audit log cannot be read right now; retry shortly');
