import type { EventKind } from '@hookline/core';
import { FILTER_OPERATORS, SPARE_ROWS, type FilterRow } from '../hook-filter-form';
import { html, trusted, type SafeHtml } from '../view/html';

// The filter editor of the hook form: one row per condition (field, operator, value), plus empty rows to add.
// Works without script; the fields offered are those of the catalogue's kinds.

const selected = (on: boolean) => (on ? trusted('selected') : '');

function row(i: number, current: FilterRow | undefined, fields: readonly string[]): SafeHtml {
  const field = current?.field ?? '';
  const known = field === '' || fields.includes(field);
  return html`<div class="filter-row" data-filter-row>
    <label class="visually-hidden" for="filter_field_${i}">Filter ${i + 1}: field</label>
    <select id="filter_field_${i}" name="filter_field_${i}">
      <option value="" ${selected(field === '')}>(no condition)</option>
      ${fields.map((name) => html`<option value="${name}" ${selected(name === field)}>${name}</option>`)}
      ${known ? '' : html`<option value="${field}" selected>${field}</option>`}
    </select>
    <label class="visually-hidden" for="filter_op_${i}">Filter ${i + 1}: condition</label>
    <select id="filter_op_${i}" name="filter_op_${i}">
      ${FILTER_OPERATORS.map(
        ([value, label]) =>
          html`<option value="${value}" ${selected(current?.op === value)}>${label}</option>`,
      )}
    </select>
    <label class="visually-hidden" for="filter_value_${i}">Filter ${i + 1}: value</label>
    <input
      id="filter_value_${i}"
      name="filter_value_${i}"
      type="text"
      spellcheck="false"
      autocomplete="off"
      value="${current?.value ?? ''}"
    />
  </div>`;
}

export function filterField(
  rows: readonly FilterRow[],
  error: string | undefined,
  kinds: readonly EventKind[],
): SafeHtml {
  const fields = [...new Set(kinds.flatMap((kind) => kind.fields.map((field) => field.name)))];
  const count = rows.length + SPARE_ROWS;
  return html`<fieldset
    class="field"
    data-filter-editor
    ${error ? trusted('aria-invalid="true"') : ''}
    aria-describedby="filter-hint${error ? ' filter-error' : ''}"
  >
    <legend>Filter <span class="muted">(optional)</span></legend>
    <input type="hidden" name="filter_shown" value="1" />
    ${Array.from({ length: count }, (_, i) => row(i, rows[i], fields))}
    <p class="hint" id="filter-hint">
      Only events whose fields meet every condition are sent to this hook, e.g. <code>direction</code> is
      <code>inbound</code>. Fields are compared as sent. For “is one of”, put commas between the values and
      double quotes around a value that holds a comma, e.g. <code>"Smith, John", Doe</code>.
    </p>
    ${error ? html`<p class="field-error" id="filter-error">${error}</p>` : ''}
  </fieldset>`;
}
