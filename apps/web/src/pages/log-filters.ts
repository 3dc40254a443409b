import { OUTCOMES, type RecordedOutcome } from '@hookline/core';
import { decodeCursor, filterTextProblem, type HistoryFilter, type PageRequest } from '@hookline/history';
import { html, type SafeHtml } from '../view/html';
import { outcomeLabel } from '../view/format';
import { DEFAULT_ZONE, localInputValue, parseLocalTime, zoneField, zoneName, zoneOf } from '../view/zone';

/** The log's filters as the query string gives them, checked; a bad value is reported and left out. */
export interface LogQuery {
  readonly filter: HistoryFilter;
  readonly page: PageRequest;
  /** What the form shows back. */
  readonly values: Readonly<Record<'outcome' | 'call_id' | 'since' | 'until', string>>;
  /** The page's cursor as given (older pages), for links that keep the view. */
  readonly cursor?: string;
  /** The cursors of the newer pages, newest first ('' is the first page): where *Newer* leads. */
  readonly back: readonly string[];
  /** How many attempts come before this page: its position in the log. */
  readonly from: number;
  /** The zone From and Until were typed in (the page's). */
  readonly zone: string;
  /**
   * The instants From and Until stand for (Until's last second taken in): a link made in another zone is shown
   * by the page's script in the reader's zone, meaning the same instants.
   */
  readonly instants: Readonly<Partial<Record<'since' | 'until', Date>>>;
  /** field -> what is wrong with it. */
  readonly problems: Readonly<Record<string, string>>;
  /** True when anything narrows or pages the log: it is then not refreshed by itself. */
  readonly active: boolean;
}

const LOCAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/;

/**
 * A `datetime-local` value in the page's zone, and the value the form shows back: as typed, unless the clock
 * skips that time (it jumps forward), then the time it was read as. "Until" takes in the whole second (or
 * minute) typed: a time read in a row and typed into Until finds that row.
 */
function instant(value: string, zone: string, end: boolean): { at: Date; shown: string } | undefined {
  const start = LOCAL.test(value) ? parseLocalTime(value, zone) : undefined;
  if (!start) return undefined;
  // The same text for every time the clock shows (to the minute or second, as typed); a skipped one moves.
  const shown = localInputValue(start, zone).slice(0, value.length);
  return { at: end ? new Date(start.getTime() + (value.length === 16 ? 60_000 : 1000)) : start, shown };
}

/**
 * What is wrong with a call id typed to look for, as the page says it; undefined when it can be looked up. The
 * rule is the history's own (the API's too): a NUL, say, could not even be looked for in the database.
 */
export function callIdProblem(callId: string): string | undefined {
  const problem = filterTextProblem('call_id', callId);
  return problem && `A call id ${problem}.`;
}

export function parseLogQuery(query: Record<string, unknown>, limit: number): LogQuery {
  const text = (name: string) => (typeof query[name] === 'string' ? (query[name] as string).trim() : '');
  const values = {
    outcome: text('outcome'),
    call_id: text('call_id'),
    since: text('since'),
    until: text('until'),
  };
  const zone = zoneOf(query.tz) ?? DEFAULT_ZONE;
  const problems: Record<string, string> = {};
  const filter: { -readonly [K in keyof HistoryFilter]: HistoryFilter[K] } = {};
  if (values.outcome) {
    if (OUTCOMES.includes(values.outcome as RecordedOutcome))
      filter.outcome = values.outcome as RecordedOutcome;
    else problems.outcome = 'Choose an outcome from the list.';
  }
  if (values.call_id) {
    const problem = callIdProblem(values.call_id);
    if (problem) problems.call_id = problem;
    else filter.callId = values.call_id;
  }
  const instants: Partial<Record<'since' | 'until', Date>> = {};
  for (const name of ['since', 'until'] as const) {
    if (!values[name]) continue;
    const read = instant(values[name], zone, name === 'until');
    if (read) {
      const { at, shown } = read;
      instants[name] = name === 'until' ? new Date(at.getTime() - 1000) : at;
      filter[name] = at;
      values[name] = shown;
    } else
      problems[name] = LOCAL.test(values[name])
        ? 'That date or time does not exist.'
        : 'Enter a date and time.';
  }
  if (filter.since && filter.until && filter.since >= filter.until) {
    problems.until = 'Must be later than “From”.';
    delete filter.until;
  }
  const cursor = text('cursor') ? decodeCursor(text('cursor')) : undefined;
  return {
    filter,
    page: { limit, ...(cursor ? { cursor } : {}) },
    ...(cursor ? { cursor: text('cursor') } : {}),
    back: cursor
      ? text('back')
          .split('.')
          .filter((c) => c === '' || decodeCursor(c))
          .slice(-50)
      : [],
    from: cursor ? Math.min(Math.max(0, Number.parseInt(text('from'), 10) || 0), 1e9) : 0,
    values,
    zone,
    instants,
    problems,
    active: Object.keys(filter).length > 0 || cursor !== undefined || Object.keys(problems).length > 0,
  };
}

function problem(q: LogQuery, field: string): SafeHtml | string {
  const text = q.problems[field];
  return text ? html`<span class="field-error" id="${field}-error">${text}</span>` : '';
}

/** One labelled input of the filter form, showing the value given back and what is wrong with it. */
function textField(
  q: LogQuery,
  label: string | SafeHtml,
  name: 'call_id' | 'since' | 'until',
  attributes: SafeHtml,
): SafeHtml {
  const at = name === 'call_id' ? undefined : q.instants[name];
  return html`<label
    ><span>${label}</span>
    <input
      ${attributes}
      name="${name}"
      value="${q.values[name]}"
      ${at ? html`data-typed-instant="${at.toISOString()}"` : ''}
      ${q.problems[name] ? html`aria-invalid="true"` : ''}
    />
    ${problem(q, name)}
  </label>`;
}

/** The filter form above a hook's log (a GET form: the filtered view is a link). */
export function logFilters(hookId: string, q: LogQuery): SafeHtml {
  const option = (value: string, label: string) =>
    html`<option value="${value}" ${q.values.outcome === value ? html`selected` : ''}>${label}</option>`;
  return html`<form class="log-filters" method="get" action="/hooks/${hookId}" aria-label="Filter the log">
    <label
      >Outcome
      <select name="outcome" ${q.problems.outcome ? html`aria-invalid="true"` : ''}>
        ${option('', 'Any')} ${OUTCOMES.map((o) => option(o, outcomeLabel(o)))}
      </select>
      ${problem(q, 'outcome')}
    </label>
    ${textField(q, 'Call id', 'call_id', html`maxlength="256"`)}
    ${textField(q, html`From (${zoneName()})`, 'since', html`type="datetime-local" step="1"`)}
    ${textField(q, html`Until (${zoneName()})`, 'until', html`type="datetime-local" step="1"`)}
    ${zoneField(q.zone)}
    <div class="filter-actions">
      <button class="btn btn-secondary" type="submit">Filter</button>
      ${q.active ? html`<a href="/hooks/${hookId}">Clear</a>` : ''}
    </div>
  </form>`;
}
