// The look, part 1: tokens, base elements, the top bar, buttons, badges, alerts and forms.
export const BASE_STYLES = String.raw`
:root {
  --bg: #f5f6f8;
  --surface: #ffffff;
  --border: #e2e5ea;
  --border-strong: #cdd2da;
  --text: #1a1f27;
  --muted: #5a6372;
  --primary: #4338ca;
  --primary-hover: #3730a3;
  --primary-soft: #eef0ff;
  --ok: #05603a;
  --ok-soft: #e7f8ef;
  --bad: #b42318;
  --bad-soft: #fdecea;
  --warn: #93370d;
  --warn-soft: #fff5e0;
  --neutral-soft: #eef0f3;
  --focus: #2563eb;
  --radius: 10px;
  --shadow: 0 1px 2px rgba(16, 24, 40, 0.06), 0 1px 3px rgba(16, 24, 40, 0.08);
  --mono: ui-monospace, SFMono-Regular, 'SF Mono', Menlo, Consolas, 'Liberation Mono', monospace;
  color-scheme: light;
}
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body {
  margin: 0;
  font-family: system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif;
  font-size: 15px;
  line-height: 1.5;
  color: var(--text);
  background: var(--bg);
}
a { color: var(--primary); text-underline-offset: 2px; }
a:hover { color: var(--primary-hover); }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; border-radius: 4px; }
h1, h2, h3 { line-height: 1.25; margin: 0; }
h1 { font-size: 1.6rem; font-weight: 700; letter-spacing: -0.01em; }
h2 { font-size: 1.1rem; font-weight: 650; }
p { margin: 0 0 0.75rem; }
code, pre, .mono { font-family: var(--mono); font-size: 0.86em; }
.mono { overflow-wrap: anywhere; }
.visually-hidden {
  position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden;
  clip: rect(0 0 0 0); white-space: nowrap; border: 0;
}
.skip-link { position: absolute; left: 8px; top: -48px; background: #fff; padding: 8px 12px; z-index: 10; }
.skip-link:focus { top: 8px; }

/* Top bar */
.topbar { background: #111827; color: #e5e7eb; }
.topbar-inner {
  max-width: 1120px; margin: 0 auto; padding: 0 20px; min-height: 56px;
  display: flex; align-items: center; gap: 24px; flex-wrap: wrap;
}
.brand { display: flex; align-items: center; gap: 8px; color: #fff; text-decoration: none; font-weight: 700; font-size: 1.05rem; }
.brand:hover { color: #fff; }
.brand svg { width: 26px; height: 26px; }
.nav { display: flex; gap: 4px; flex: 1; }
.nav a {
  color: #cbd5e1; text-decoration: none; padding: 6px 12px; border-radius: 8px; font-weight: 500;
}
.nav a:hover { color: #fff; background: rgba(255, 255, 255, 0.08); }
.nav a[aria-current='page'] { color: #fff; background: rgba(255, 255, 255, 0.14); }
.who { display: flex; align-items: center; gap: 12px; font-size: 0.9rem; color: #cbd5e1; }
.who form { margin: 0; }
.who .btn { padding: 5px 12px; font-size: 0.85rem; }

/* Page */
main { max-width: 1120px; margin: 0 auto; padding: 28px 20px 64px; }
.zone-note { max-width: 1120px; margin: -40px auto 0; padding: 0 20px 32px; color: var(--muted); font-size: 0.875rem; }
.plain-list { list-style: none; padding: 0; margin: 0; }
.plain-list li { padding: 6px 0; display: flex; gap: 8px; align-items: center; flex-wrap: wrap; }
.page-header { display: flex; align-items: flex-start; justify-content: space-between; gap: 16px; flex-wrap: wrap; margin-bottom: 20px; }
.page-header .sub { color: var(--muted); margin: 6px 0 0; }
.page-header .title-row { display: flex; align-items: center; gap: 10px; flex-wrap: wrap; }
.breadcrumb { font-size: 0.9rem; margin-bottom: 6px; }
/*
 * A link that stands on its own (not within a sentence) is at least 24 px tall, so a finger finds it on a
 * phone: WCAG 2.2 target size. Inline-block keeps long URLs wrapping; the height is the line's.
 */
.breadcrumb a, .card-header > a:not(.btn), .filter-actions a, .log-more a, .hook-row a.hook-link, table.log td a,
.feed a, .card-body > a:not(.btn), .support a {
  display: inline-block; min-height: 24px; line-height: 24px;
}
.actions { display: flex; gap: 8px; flex-wrap: wrap; align-items: center; }
.actions form { margin: 0; }
.stack > * + * { margin-top: 20px; }
.narrow { max-width: 640px; }
.muted { color: var(--muted); }
.center { text-align: center; margin-top: 16px; font-size: 0.9rem; }
.url { font-family: var(--mono); word-break: break-all; }

/* Cards */
.card { background: var(--surface); border: 1px solid var(--border); border-radius: var(--radius); box-shadow: var(--shadow); }
.card-header { display: flex; justify-content: space-between; align-items: center; gap: 12px; padding: 16px 20px; border-bottom: 1px solid var(--border); flex-wrap: wrap; }
.card-header p { margin: 2px 0 0; color: var(--muted); font-size: 0.9rem; }
.card-body { padding: 20px; }
.card-body > :last-child { margin-bottom: 0; }

/* Buttons */
.btn {
  display: inline-flex; align-items: center; justify-content: center; gap: 6px;
  font: inherit; font-weight: 600; font-size: 0.92rem; line-height: 1.2;
  padding: 9px 16px; border-radius: 8px; border: 1px solid transparent; cursor: pointer;
  text-decoration: none; white-space: nowrap;
}
.btn-primary { background: var(--primary); color: #fff; }
.btn-primary:hover { background: var(--primary-hover); color: #fff; }
.btn-secondary { background: var(--surface); color: var(--text); border-color: var(--border-strong); }
.btn-secondary:hover { background: #f3f4f6; color: var(--text); }
.btn-danger { background: var(--bad); color: #fff; }
.btn-danger:hover { background: #912018; color: #fff; }
.btn-danger-outline { background: var(--surface); color: var(--bad); border-color: #f1b5ae; }
.btn-danger-outline:hover { background: var(--bad-soft); color: var(--bad); }
.btn-ghost { background: transparent; color: #e5e7eb; border-color: rgba(255, 255, 255, 0.25); }
.btn-ghost:hover { background: rgba(255, 255, 255, 0.1); color: #fff; }

/* Badges */
.badge {
  display: inline-flex; align-items: center; gap: 6px; padding: 2px 10px; border-radius: 999px;
  font-size: 0.8rem; font-weight: 600; white-space: nowrap; background: var(--neutral-soft); color: #344054;
}
.badge::before { content: ''; width: 7px; height: 7px; border-radius: 50%; background: currentColor; }
.badge-ok { background: var(--ok-soft); color: var(--ok); }
.badge-bad { background: var(--bad-soft); color: var(--bad); }
.badge-warn { background: var(--warn-soft); color: var(--warn); }
.badge-plain::before { display: none; }

/* Alerts and the suspension banner */
.alert { border-radius: var(--radius); padding: 12px 16px; border: 1px solid; margin-bottom: 20px; }
.alert p:last-child { margin-bottom: 0; }
.alert-success { background: var(--ok-soft); border-color: #a6e3c4; color: #054f31; }
.alert-warning { background: var(--warn-soft); border-color: #f7d49a; color: #7a2e0e; }
.alert-error { background: var(--bad-soft); border-color: #f5b5ad; color: #7a1a12; }
.banner-suspended {
  background: #fff; border: 2px solid var(--bad); border-left-width: 8px; border-radius: var(--radius);
  padding: 20px 24px; box-shadow: var(--shadow);
}
.banner-suspended h2 { color: var(--bad); font-size: 1.2rem; margin-bottom: 6px; }
.banner-suspended .failures { margin: 12px 0 16px; padding: 0; list-style: none; border-top: 1px solid var(--border); }
.banner-suspended .failures li { padding: 8px 0; border-bottom: 1px solid var(--border); display: flex; gap: 10px; flex-wrap: wrap; align-items: baseline; font-size: 0.9rem; }
.reenable { display: flex; gap: 10px; flex-wrap: wrap; }
.reenable form { margin: 0; }
.banner-suspended .rule-note { margin: 14px 0 12px; font-size: 0.9rem; }
.reenable input[type='datetime-local'] { font: inherit; padding: 7px 8px; margin: 0 6px 0 4px; border: 1px solid var(--border-strong); border-radius: 6px; }

/* Forms */
form { margin: 0; }
.field { margin-bottom: 18px; }
.field > label, .field legend { display: block; font-weight: 600; margin-bottom: 6px; }
.field .hint { color: var(--muted); font-size: 0.86rem; margin: 4px 0 0; }
.field-error { color: var(--bad); font-size: 0.88rem; font-weight: 500; margin: 6px 0 0; }
input[type='text'], input[type='url'], input[type='email'], input[type='password'], textarea, select {
  width: 100%; font: inherit; color: var(--text); padding: 9px 12px; border: 1px solid var(--border-strong);
  border-radius: 8px; background: #fff;
}
input:focus-visible, textarea:focus-visible { outline: 3px solid rgba(37, 99, 235, 0.35); outline-offset: 0; border-color: var(--focus); }
input[aria-invalid='true'], textarea[aria-invalid='true'] { border-color: var(--bad); }
textarea { min-height: 72px; resize: vertical; }
fieldset { border: 0; padding: 0; margin: 0 0 18px; min-width: 0; }
.choices { display: grid; grid-template-columns: repeat(auto-fit, minmax(160px, 1fr)); gap: 10px; }
.choice {
  display: flex; gap: 10px; align-items: flex-start; padding: 12px 14px; border: 1px solid var(--border-strong);
  border-radius: 8px; background: #fff; cursor: pointer; font-weight: 500;
}
.choice:has(input:checked) { border-color: var(--primary); background: var(--primary-soft); box-shadow: 0 0 0 1px var(--primary); }
.choice input { margin: 3px 0 0; accent-color: var(--primary); }
.choice small { display: block; color: var(--muted); font-weight: 400; }
.subfields { border: 1px solid var(--border); border-radius: 8px; padding: 16px 16px 0; margin-bottom: 18px; background: #fafbfc; }
.subfields legend { float: left; width: 100%; font-weight: 600; margin-bottom: 10px; }
.subfields legend + * { clear: both; }
/* Only the chosen scheme's credential fields; pure CSS so it works before and without the script. */
form:has(input[name='auth_scheme'][value='none']:checked) [data-scheme-fields],
form:has(input[name='auth_scheme'][value='bearer']:checked) [data-scheme-fields]:not([data-scheme-fields='bearer']),
form:has(input[name='auth_scheme'][value='basic']:checked) [data-scheme-fields]:not([data-scheme-fields='basic']),
form:has(input[name='auth_scheme'][value='oauth2']:checked) [data-scheme-fields]:not([data-scheme-fields='oauth2']) { display: none; }
[hidden] { display: none !important; }
.form-actions { display: flex; gap: 10px; flex-wrap: wrap; margin-top: 8px; }

.form-layout { display: grid; grid-template-columns: minmax(0, 640px) minmax(0, 1fr); gap: 20px; align-items: start; }
.help h2 { font-size: 1rem; margin-bottom: 10px; }
.help ul { margin: 0; padding-left: 18px; color: var(--muted); font-size: 0.9rem; }
.help li + li { margin-top: 8px; }
`;
