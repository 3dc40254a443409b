import type { HookHealth } from '@hookline/history';
import { html, type SafeHtml } from '../view/html';
import { errorText, outcomeBadge, time, timeText } from '../view/format';

const W = 720;
const H = 160;
const PAD = 24;

/**
 * Delivered (green) over not delivered (red) per hour, stacked, as inline SVG: no script and nothing loaded
 * from elsewhere. It scales to the card's width; the numbers are also in the accessible description.
 */
function chart(health: HookHealth): SafeHtml {
  const series = health.series;
  const max = Math.max(1, ...series.map((p) => p.delivered + p.not_delivered));
  const step = (W - PAD) / series.length;
  const bar = Math.max(1, step * 0.8);
  const y = (n: number) => ((H - PAD) * n) / max;
  const bars = series.map((p, i) => {
    const x = PAD + i * step;
    const ok = y(p.delivered);
    const bad = y(p.not_delivered);
    return html`<g>
      <title data-at="${p.hour}" data-rest="${`: ${p.delivered} delivered, ${p.not_delivered} not`}">
        ${timeText(p.hour)}: ${p.delivered} delivered, ${p.not_delivered} not
      </title>
      <rect
        x="${x.toFixed(1)}"
        y="${(H - PAD - ok).toFixed(1)}"
        width="${bar.toFixed(1)}"
        height="${ok.toFixed(1)}"
        class="ok"
      />
      <rect
        x="${x.toFixed(1)}"
        y="${(H - PAD - ok - bad).toFixed(1)}"
        width="${bar.toFixed(1)}"
        height="${bad.toFixed(1)}"
        class="bad"
      />
    </g>`;
  });
  const delivered = series.reduce((n, p) => n + p.delivered, 0);
  const failed = series.reduce((n, p) => n + p.not_delivered, 0);
  return html`<svg
    class="health-chart"
    viewBox="0 0 ${W} ${H}"
    role="img"
    aria-labelledby="chart-title chart-desc"
  >
    <title id="chart-title">Attempts per hour, last ${health.hours} hours</title>
    <desc id="chart-desc">
      ${delivered} delivered and ${failed} not delivered in all; the highest hour had ${max}.
    </desc>
    <line x1="${PAD}" y1="${H - PAD}" x2="${W}" y2="${H - PAD}" class="axis" />
    <text x="0" y="12" class="label">${max}</text>
    <text x="0" y="${H - PAD}" class="label">0</text>
    ${bars}
  </svg>`;
}

const percent = (rate: number | null) =>
  rate === null ? '—' : `${(rate * 100).toFixed(rate === 1 ? 0 : 1)}%`;
const ms = (value: number | null) => (value === null ? '—' : `${Math.round(value)} ms`);

/** The hook's health over 24 hours or 7 days: success rate, latency, outcomes, the last error, a chart. */
export function healthCard(hookId: string, health: HookHealth): SafeHtml {
  const week = health.hours > 24;
  const outcomes = Object.entries(health.by_outcome).filter(([, n]) => n > 0);
  return html`<section class="card" aria-labelledby="health-title" data-health>
    <div class="card-header">
      <div>
        <h2 id="health-title">Health</h2>
        <p>${week ? 'Last 7 days' : 'Last 24 hours'}, hour by hour.</p>
      </div>
      <nav class="segmented" aria-label="Health window">
        <a href="/hooks/${hookId}?window=24h#health-title" ${week ? '' : html`aria-current="true"`}>24 h</a>
        <a href="/hooks/${hookId}?window=7d#health-title" ${week ? html`aria-current="true"` : ''}>7 days</a>
      </nav>
    </div>
    <div class="card-body">
      <dl class="stats">
        <div>
          <dt>Success rate</dt>
          <dd data-success-rate>${percent(health.success_rate)}</dd>
        </div>
        <div>
          <dt>Attempts</dt>
          <dd>${health.attempts}</dd>
        </div>
        <div>
          <dt>Latency p50</dt>
          <dd>${ms(health.p50_ms)}</dd>
        </div>
        <div>
          <dt>Latency p99</dt>
          <dd>${ms(health.p99_ms)}</dd>
        </div>
      </dl>
      ${chart(health)}
      ${outcomes.length > 0 ? html`<p class="outcome-counts">${outcomes.map(([o, n]) => html`${outcomeBadge(o as never)} ${n} `)}</p>` : ''}
      ${
        health.last_error
          ? html`<p class="muted">
              Last failure ${time(health.last_error.attempted_at)}:
              ${
                health.last_error.error
                  ? errorText(health.last_error.error)
                  : health.last_error.status_code !== undefined
                    ? `HTTP ${health.last_error.status_code}`
                    : health.last_error.outcome
              }
            </p>`
          : ''
      }
    </div>
  </section>`;
}
