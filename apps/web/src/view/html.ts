// The only way markup is produced: every interpolated value is escaped unless it is already SafeHtml (the
// result of another `html` template), so user input (hook URLs, descriptions, response excerpts) cannot
// inject markup anywhere.
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export type Renderable = SafeHtml | string | number | boolean | null | undefined | readonly Renderable[];

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

function render(value: Renderable): string {
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  // false/null/undefined render as nothing so `${cond && html`…`}` reads naturally.
  if (value === null || value === undefined || value === false || value === true) return '';
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Renderable[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? '');
  });
  return new SafeHtml(out);
}

/** For markup built by this app itself (e.g. an SVG constant); never for anything that came from a request. */
export function trusted(markup: string): SafeHtml {
  return new SafeHtml(markup);
}

/** Joins fragments with a literal separator, e.g. newlines inside a <pre>. */
export function joinHtml(parts: readonly SafeHtml[], separator: string): SafeHtml {
  return new SafeHtml(parts.map((p) => p.value).join(escapeHtml(separator)));
}
