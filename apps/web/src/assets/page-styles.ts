// The look, part 2: the hook list, delivery log, request preview, feed, sign-in, and the narrow layouts.
export const PAGE_STYLES = String.raw`
/* Hook list */
.hook-list { list-style: none; margin: 0; padding: 0; }
.hook-row { display: grid; grid-template-columns: minmax(0, 1fr) auto; gap: 6px 20px; padding: 16px 20px; border-top: 1px solid var(--border); align-items: center; }
.hook-row:first-child { border-top: 0; }
.hook-row a.hook-link { font-weight: 600; text-decoration: none; color: var(--text); }
.hook-row a.hook-link:hover { color: var(--primary); text-decoration: underline; }
.hook-meta { display: flex; flex-wrap: wrap; gap: 6px 14px; color: var(--muted); font-size: 0.86rem; margin-top: 4px; }
.hook-side { display: flex; flex-direction: column; align-items: flex-end; gap: 4px; font-size: 0.86rem; color: var(--muted); text-align: right; }
.empty { text-align: center; padding: 48px 20px; }
.empty p { color: var(--muted); }
.empty h2, .error-page h1 { margin-bottom: 8px; }

/* Key-value details */
.kv { display: grid; grid-template-columns: 160px minmax(0, 1fr); gap: 10px 16px; margin: 0; }
.kv dt { color: var(--muted); font-weight: 500; }
.kv dd { margin: 0; overflow-wrap: anywhere; }
.grid-2 { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 20px; align-items: start; }

/* Delivery log */
.table-wrap { overflow-x: auto; }
table.log { width: 100%; border-collapse: collapse; font-size: 0.9rem; }
table.log th { text-align: left; font-weight: 600; color: var(--muted); font-size: 0.8rem; text-transform: uppercase; letter-spacing: 0.03em; padding: 10px 16px; background: #fafbfc; border-bottom: 1px solid var(--border); }
table.log td { padding: 12px 16px; border-bottom: 1px solid var(--border); vertical-align: top; }
table.log tr:last-child td { border-bottom: 0; }
table.log .excerpt { max-width: 280px; }
table.log .excerpt code, .excerpt-text { display: block; white-space: pre-wrap; word-break: break-all; max-height: 4.5em; overflow: hidden; color: #344054; }
.log-status { display: flex; align-items: center; gap: 8px; color: var(--muted); font-size: 0.85rem; }
.live-dot { width: 8px; height: 8px; border-radius: 50%; background: #12b76a; box-shadow: 0 0 0 3px rgba(18, 183, 106, 0.2); }

/* Request preview */
pre.request {
  margin: 0; background: #0f172a; color: #e2e8f0; padding: 16px 18px; border-radius: 8px; overflow-x: auto;
  white-space: pre-wrap; word-break: break-all; line-height: 1.6;
}
pre.request .h { color: #93c5fd; }
.response-block > * + * { margin-top: 12px; }
pre.request .m { color: #fbbf24; font-weight: 700; }

/* Signing secret, shown once */
.inline-form { display: inline-block; margin: 6px 0 0; }
.btn-small { padding: 4px 10px; font-size: 0.85rem; }
.secret-row { display: flex; flex-wrap: wrap; gap: 10px; align-items: stretch; margin-bottom: 12px; }
.secret-row input { flex: 1 1 320px; min-width: 0; font-size: 0.85rem; }
pre.snippet {
  margin: 0 0 18px; background: #0f172a; color: #e2e8f0; padding: 14px 16px; border-radius: 8px; overflow-x: auto;
  line-height: 1.55; font-size: 0.85rem;
}
.card-body h3 { font-size: 0.95rem; margin: 0 0 8px; }
.choices-stack { grid-template-columns: minmax(0, 1fr); }
/* Hook filter editor: field, condition, value on one line (stacked on phones) */
.filter-row { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr) minmax(0, 1.4fr); gap: 8px; margin-bottom: 8px; }
@media (max-width: 600px) { .filter-row { grid-template-columns: minmax(0, 1fr); } }
.hook-gets { margin: 0 0 12px; }

/* Activity */
.feed { list-style: none; margin: 0; padding: 0; }
.feed li { display: grid; grid-template-columns: auto minmax(0, 1fr) auto; gap: 4px 14px; padding: 14px 20px; border-top: 1px solid var(--border); align-items: baseline; }
.feed li:first-child { border-top: 0; }
.feed .badge { justify-self: start; }
.feed .when { color: var(--muted); font-size: 0.85rem; white-space: nowrap; }
.feed .detail { color: var(--muted); font-size: 0.88rem; grid-column: 2 / 4; }

/* Sign-in */
.auth-shell { min-height: 100vh; display: flex; align-items: center; justify-content: center; padding: 24px 16px; }
.auth-card { width: 100%; max-width: 400px; }
.auth-card .brand { color: var(--text); justify-content: center; margin-bottom: 20px; font-size: 1.3rem; }
.auth-card .brand:hover { color: var(--text); }
.auth-card h1 { font-size: 1.3rem; margin-bottom: 4px; }
.auth-card .btn { width: 100%; margin-top: 4px; }

.error-page { text-align: center; padding: 56px 20px; }
.error-page .code { font-size: 3rem; font-weight: 800; color: var(--muted); margin-bottom: 8px; }

/* Delivery history: filters, health, search */
.log-filters { display: flex; flex-wrap: wrap; gap: 10px 14px; align-items: flex-end; }
.log-filters label { display: flex; flex-direction: column; gap: 4px; font-size: 0.85rem; font-weight: 600; color: var(--muted); }
.log-filters input, .log-filters select, .search-box input { font: inherit; font-weight: 400; color: var(--text); padding: 7px 8px; border: 1px solid var(--border-strong); border-radius: 6px; min-width: 0; }
.log-filters .filter-actions { display: flex; gap: 12px; align-items: center; }
.log-more { text-align: right; }
.search-box { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; }
.search-box label { font-weight: 600; }
.search-box input { flex: 1 1 220px; }
.segmented { display: inline-flex; border: 1px solid var(--border-strong); border-radius: 6px; overflow: hidden; }
.segmented a { padding: 4px 10px; text-decoration: none; color: var(--text); }
.segmented a[aria-current] { background: var(--text); color: var(--surface); }
.stats { display: grid; grid-template-columns: repeat(4, minmax(0, 1fr)); gap: 12px; margin: 0 0 14px; }
.stats div { border: 1px solid var(--border); border-radius: 8px; padding: 10px 12px; }
.stats dt { color: var(--muted); font-size: 0.8rem; font-weight: 600; }
.stats dd { margin: 2px 0 0; font-size: 1.25rem; font-weight: 700; }
.health-figure { margin: 0 0 12px; }
.chart-grid { display: grid; grid-template-columns: auto minmax(0, 1fr); column-gap: 8px; }
.y-scale {
  display: flex; flex-direction: column; justify-content: space-between; text-align: right;
  font-size: 0.8rem; line-height: 1; color: var(--muted);
}
.health-chart { width: 100%; height: 140px; display: block; border-bottom: 1px solid var(--border-strong); }
.health-chart .ok { fill: #12b76a; }
.health-chart .bad { fill: #d92d20; }
.time-axis { display: block; overflow: visible; }
.time-axis line { stroke: var(--border-strong); stroke-width: 1; }
.time-axis text { font-size: 12px; fill: var(--muted); }
.health-figure figcaption { font-size: 0.85rem; margin-top: 2px; }
.outcome-counts { display: flex; flex-wrap: wrap; gap: 6px 10px; align-items: center; }
@media (max-width: 760px) {
  .grid-2, .form-layout { grid-template-columns: minmax(0, 1fr); }
  .kv { grid-template-columns: minmax(0, 1fr); gap: 2px; }
  .kv dd { margin-bottom: 10px; }
}
@media (max-width: 640px) {
  body { font-size: 15px; }
  main { padding: 20px 14px 48px; }
  .topbar-inner { padding: 10px 14px; gap: 8px 16px; }
  .nav { order: 3; flex-basis: 100%; margin: 0 -12px; }
  .who { margin-left: auto; }
  .who .account-name { display: none; }
  h1 { font-size: 1.35rem; }
  .page-header .actions { width: 100%; }
  .card-header, .card-body { padding-left: 16px; padding-right: 16px; }
  .hook-row { grid-template-columns: minmax(0, 1fr); padding: 14px 16px; }
  .hook-side { align-items: flex-start; flex-direction: row; flex-wrap: wrap; gap: 8px; text-align: left; }
  .banner-suspended { padding: 16px; }
  .reenable .btn, .reenable form { width: 100%; }
  .reenable .btn { white-space: normal; text-align: center; }
  .feed li { grid-template-columns: minmax(0, 1fr); padding: 12px 16px; }
  .feed .detail { grid-column: auto; }
  /* The delivery table becomes one card per attempt. */
  table.log thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  table.log, table.log tbody, table.log tr, table.log td { display: block; width: 100%; }
  table.log tr { padding: 12px 16px; border-bottom: 1px solid var(--border); }
  table.log tr:last-child { border-bottom: 0; }
  table.log td { display: grid; grid-template-columns: 96px minmax(0, 1fr); justify-items: start; gap: 10px; border: 0; padding: 3px 0; }
  table.log td::before { content: attr(data-label); color: var(--muted); font-size: 0.8rem; font-weight: 600; }
  table.log td.empty-cell { display: none; }
  table.log .excerpt { max-width: none; }
  .stats { grid-template-columns: repeat(2, minmax(0, 1fr)); }
  /* Every other day's label on the 7-day axis: the rest would overlap at a phone's width. */
  .time-axis .minor { display: none; }
  .log-filters label, .log-filters input, .log-filters select { width: 100%; }
}
`;
