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

// Line and paragraph separators break a line as a line break does; bidirectional controls make the text after
// them read in another order than it was typed (a reason shown to a customer could say something else).
const LINE_OR_BIDI = /[\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** The problem with one line of text shown to people as written (a pause's reason), or undefined. */
export function oneLineTextProblem(value: string): string | undefined {
  return (
    freeTextProblem(value) ??
    (LINE_OR_BIDI.test(value)
      ? 'must be one line without direction controls (U+2028, U+2029, U+202A–U+202E, U+2066–U+2069)'
      : undefined)
  );
}
