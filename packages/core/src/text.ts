// What free text may hold: it is stored, shown and forwarded to customers as given, so nothing a receiver or
// a page would read differently from what was typed. Lone UTF-16 surrogates cannot be encoded as UTF-8 (JSON
// would carry \\udXXX escapes many receivers reject, form encoding would silently replace them), and control
// characters (NUL above all) break receivers, logs and pages.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** The problem with a piece of free text, or undefined when it can be kept as given. */
export function freeTextProblem(value: string): string | undefined {
  if (!value.isWellFormed()) return 'must be well-formed Unicode (no lone surrogates)';
  if (CONTROL.test(value)) return 'must not contain control characters';
  return undefined;
}
