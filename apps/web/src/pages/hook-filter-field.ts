import type { EventKind } from '@hookline/core';
import { FILTER_OPERATORS, SPARE_ROWS, type FilterRow } from '../hook-filter-form';
import { html, trusted, type SafeHtml } from '../view/html';

// The filter editor of the hook form: one row per condition (field, operator, value), plus empty rows to add.
// Works without script; the fields offered are those of the catalogue's kinds (with script: of the kinds ticked).

const selected = (on: boolean) => (on ? trusted('selected') : '');

/** A field offered, with the kinds that have it (the page script offers it while one of them is ticked). */
interface OfferedField {
  readonly name: string;
  readonly kinds: string;
}

function row(i: number, current: FilterRow | undefined, fields: readonly OfferedField[]): SafeHtml {
  const field = current?.field ?? '';
  const known = field === '' || fields.some((f) => f.name === field);
  return html`<div class="filter-row" data-filter-row>
    <label class="visually-hidden" for="filter_field_${i}">Filter ${i + 1}: field</label>
    <select id="filter_field_${i}" name="filter_field_${i}">
      <option value="" ${selected(field === '')}>(no condition)</option>
      ${fields.map(
        ({ name, kinds }) =>
          html`<option value="${name}" data-kinds="${kinds}" ${selected(name === field)}>${name}</option>`,
      )}
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
  // Every kind's fields without script; the page script then offers only those of the kinds ticked beside
  // (a field of no subscribed kind is refused), so each option names its kinds.
  const names = [...new Set(kinds.flatMap((kind) => kind.fields.map((field) => field.name)))];
  const fields = names.map((name) => ({
    name,
    kinds: kinds
      .filter((kind) => kind.fields.some((f) => f.name === name))
      .map((kind) => kind.name)
      .join(' '),
  }));
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
