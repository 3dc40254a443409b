import type { FieldProblem, HookFilter } from '@hookline/core';

// The hook form's filter editor, as rows of (field, operator, value): a row without a field is left out, so
// the form always offers a few empty rows to add conditions without script. Kept apart from the rest of the
// form (hook-form-input.ts), which only reads and writes `values.filter` through these functions.

export const FILTER_OPERATORS = [
  ['is', 'is'],
  ['in', 'is one of (commas between)'],
  ['prefix', 'starts with'],
  ['present', 'is present'],
  ['absent', 'is absent'],
] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number][0];

export interface FilterRow {
  readonly field: string;
  readonly op: FilterOperator;
  readonly value: string;
  /** An operator the form does not offer, as sent (a hand-made request): the row is refused, never read as "is". */
  readonly unknownOp?: string;
}

/** Empty rows the form offers beyond the conditions already set. */
export const SPARE_ROWS = 2;
const MAX_ROWS = 20;

type FormBody = Readonly<Record<string, unknown>>;
const text = (body: FormBody, name: string) => (typeof body[name] === 'string' ? (body[name] as string) : '');
const isOperator = (op: string): op is FilterOperator => FILTER_OPERATORS.some(([value]) => value === op);

/** Whether the page showed the filter editor: a form without it (an older page) leaves the filter as it is. */
export const filterShown = (body: FormBody): boolean => text(body, 'filter_shown') === '1';

/** The rows the form sent, rows without a field left out. */
export function readFilterRows(body: FormBody): FilterRow[] {
  const rows: FilterRow[] = [];
  for (let i = 0; i < MAX_ROWS; i += 1) {
    const field = text(body, `filter_field_${i}`).trim();
    const op = text(body, `filter_op_${i}`);
    if (!field) continue;
    const value = text(body, `filter_value_${i}`);
    rows.push(isOperator(op) ? { field, op, value } : { field, op: 'is', value, unknownOp: op });
  }
  return rows;
}

/**
 * What is wrong with the rows as rows, before they make a filter, or undefined: an operator the form does not
 * offer, a field in two of them (the API's shape has one condition a field, so one row would be lost without a
 * word), or an "is one of" whose quote is left open (its commas would then be read as part of one value).
 */
export function filterRowsProblem(rows: readonly FilterRow[]): string | undefined {
  const seen = new Set<string>();
  for (const { field, op, value, unknownOp } of rows) {
    if (unknownOp !== undefined)
      return `Filter on “${field}”: “${unknownOp}” is not a condition it can take; choose one of ${FILTER_OPERATORS.map(([, label]) => `“${label.replace(/ \(.*\)$/, '')}”`).join(', ')}.`;
    if (seen.has(field))
      return `Filter on “${field}”: it is in two rows, and a field takes one condition (for several values, use “is one of”).`;
    seen.add(field);
    if (op === 'in' && scanList(value).unclosed)
      return `Filter on “${field}” (“is one of”): a quote is not closed; a value holding a comma goes in quotes, as in "Smith, John", Doe.`;
  }
  return undefined;
}

/** The filter the rows make (filterRowsProblem first: a field in two rows would keep the last). */
export function filterOfRows(rows: readonly FilterRow[]): HookFilter | undefined {
  if (rows.length === 0) return undefined;
  const filter: Record<string, HookFilter[string]> = {};
  for (const { field, op, value } of rows) {
    if (op === 'is') filter[field] = value;
    else if (op === 'prefix') filter[field] = { $prefix: value };
    else if (op === 'present' || op === 'absent') filter[field] = { $exists: op === 'present' };
    else filter[field] = { $in: readList(value) };
  }
  return filter;
}

// An "is one of" value is a list of texts with commas between, as CSV writes them: a text holding a comma or
// a double quote, starting or ending with a space, or empty, is written in double quotes (a quote inside it
// doubled). Caller names are often "Last, First": without quotes the form would split them, and saving the
// hook for any other change would rewrite its filter.
const needsQuotes = (value: string) => value === '' || /[",]/.test(value) || value.trim() !== value;

/** The texts of an "is one of" value: `"Smith, John", Doe` is `Smith, John` and `Doe`. */
export function readList(text: string): string[] {
  return scanList(text).values;
}

/** The texts, and whether a quote was left open (the last text then runs to the end). */
function scanList(text: string): { values: string[]; unclosed: boolean } {
  const values: string[] = [];
  let unclosed = false;
  let i = 0;
  while (i < text.length) {
    while (i < text.length && /\s/.test(text[i]!)) i += 1;
    let value = '';
    let quoted = false;
    if (text[i] === '"') {
      quoted = true;
      unclosed = true;
      for (i += 1; i < text.length; i += 1) {
        if (text[i] !== '"') value += text[i];
        else if (text[i + 1] === '"') {
          value += '"';
          i += 1;
        } else {
          i += 1;
          unclosed = false;
          break;
        }
      }
    }
    // Unquoted, or after a closing quote: the text up to the next comma, as typed but for outer spaces.
    const comma = text.indexOf(',', i);
    const end = comma < 0 ? text.length : comma;
    const rest = text.slice(i, end);
    value = quoted ? value + rest.trimEnd() : rest.trim();
    if (quoted || value !== '') values.push(value);
    i = end + 1;
  }
  return { values, unclosed };
}

/** The texts as an "is one of" value, read back whole by readList. */
export function writeList(values: readonly string[]): string {
  return values.map((v) => (needsQuotes(v) ? `"${v.replaceAll('"', '""')}"` : v)).join(', ');
}

/** The stored filter as rows, to fill the edit form. */
export function rowsOfFilter(filter: HookFilter | undefined): FilterRow[] {
  return Object.entries(filter ?? {}).map(([field, condition]): FilterRow => {
    if (typeof condition === 'string') return { field, op: 'is', value: condition };
    if ('$exists' in condition) return { field, op: condition.$exists ? 'present' : 'absent', value: '' };
    if ('$prefix' in condition) return { field, op: 'prefix', value: condition.$prefix };
    return { field, op: 'in', value: writeList(condition.$in) };
  });
}

const OPERATOR_WORDS: Record<string, string> = {
  $in: '“is one of”',
  $prefix: '“starts with”',
  $exists: '“is present / absent”',
};

/** A filter problem (`filter.to.$in`) as a sentence next to the editor, naming the field and the operator. */
export function filterError(problem: FieldProblem): string {
  const [, field, operator] = problem.field.split('.');
  const on = field ? ` on “${field}”` : '';
  const how = operator ? ` (${OPERATOR_WORDS[operator] ?? operator})` : '';
  const message = problem.message.replace(/^filter\s+/, '');
  return `Filter${on}${how}: ${message}${message.endsWith('.') ? '' : '.'}`;
}
