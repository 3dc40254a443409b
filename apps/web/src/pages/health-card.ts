import { failureInWords, isDropped, type RecordedOutcome } from '@hookline/core';
import type { HookHealth, SentNothingCounts } from '@hookline/history';
import { html, type SafeHtml } from '../view/html';
import { errorText, outcomeBadge, sentNothingBadge, time, timeText } from '../view/format';
import { suspensionRule, type SuspensionRule } from './suspension-rule';
import { DEFAULT_ZONE } from '../view/zone';

const W = 720;
const H = 140;

// The time axis: a tick at the start of every 6th hour (24 h) or of every day (7 days), on UTC hour
// boundaries (the buckets are UTC hours). Its labels are written in UTC here and in the page's zone by the
// script, like every time on the page; they are text of their own, outside the scaled chart, so they keep
// their size on a phone.
const AXIS_FORMATS = {
  hour: { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
  day: { weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
} as const satisfies Record<string, Intl.DateTimeFormatOptions>;

function timeAxis(series: HookHealth['series']): SafeHtml {
  const n = series.length;
  const everyDay = n > 48;
  const format = everyDay ? 'day' : 'hour';
  const text = new Intl.DateTimeFormat('en-GB', { timeZone: DEFAULT_ZONE, ...AXIS_FORMATS[format] });
  // A label centred on a tick this close to an edge would hang past the chart: that tick goes unlabelled.
  const ticks = series
    .map((p, i) => ({ at: p.hour, x: (100 * i) / n, utcHour: new Date(p.hour).getUTCHours() }))
    .filter((t) => (everyDay ? t.utcHour === 0 : t.utcHour % 6 === 0) && t.x >= 5 && t.x <= 95);
  return html`<svg class="time-axis" aria-hidden="true" width="100%" height="34">
    ${ticks.map((t, k) => {
      const { x } = t;
      return html`<g class="${everyDay && k % 2 === 1 ? 'tick minor' : 'tick'}">
        <line x1="${x.toFixed(2)}%" x2="${x.toFixed(2)}%" y1="0" y2="6" />
        <text
          x="${x.toFixed(2)}%"
          y="22"
          text-anchor="middle"
          data-axis-at="${t.at}"
          data-axis-format="${format}"
        >
          ${text.format(new Date(t.at))}
        </text>
      </g>`;
    })}
  </svg>`;
}

/**
 * Delivered (green) over not delivered (red) per hour, stacked, as inline SVG: no script and nothing loaded
 * from elsewhere. The bars stretch to the card's width; the scale and the time axis are text beside and under
 * them, legible at any width. The numbers are also in the accessible description.
 */
function chart(health: HookHealth): SafeHtml {
  const series = health.series;
  const max = Math.max(1, ...series.map((p) => p.delivered + p.not_delivered));
  const step = W / Math.max(1, series.length);
  const bar = Math.max(1, step * 0.8);
  const y = (n: number) => (H * n) / max;
  const bars = series.map((p, i) => {
    const x = i * step + (step - bar) / 2;
    const ok = y(p.delivered);
    const bad = y(p.not_delivered);
    return html`<g>
      <title data-at="${p.hour}" data-rest="${`: ${p.delivered} delivered, ${p.not_delivered} not`}">
        ${timeText(p.hour)}: ${p.delivered} delivered, ${p.not_delivered} not
      </title>
      <rect
        x="${x.toFixed(1)}"
        y="${(H - ok).toFixed(1)}"
        width="${bar.toFixed(1)}"
        height="${ok.toFixed(1)}"
        class="ok"
      />
      <rect
        x="${x.toFixed(1)}"
        y="${(H - ok - bad).toFixed(1)}"
        width="${bar.toFixed(1)}"
        height="${bad.toFixed(1)}"
        class="bad"
      />
    </g>`;
  });
  const delivered = series.reduce((n, p) => n + p.delivered, 0);
  const failed = series.reduce((n, p) => n + p.not_delivered, 0);
  return html`<figure class="health-figure" data-health-chart>
    <div class="chart-grid">
      <div class="y-scale" aria-hidden="true"><span>${max}</span><span>0</span></div>
      <svg
        class="health-chart"
        viewBox="0 0 ${W} ${H}"
        preserveAspectRatio="none"
        role="img"
        aria-labelledby="chart-title chart-desc"
      >
        <title id="chart-title">Attempts per hour, last ${health.hours} hours</title>
        <desc id="chart-desc">
          ${delivered} delivered and ${failed} not delivered in all; the highest hour had ${max}.
        </desc>
        ${bars}
      </svg>
      <span></span>
      ${timeAxis(series)}
    </div>
    <figcaption class="muted">
      Attempts per hour; times in <span data-zone-name>${DEFAULT_ZONE}</span>.
    </figcaption>
  </figure>`;
}

/** The last failure's error in words, else its status, else its outcome in words (never its code). */
function lastFailure(failure: NonNullable<HookHealth['last_error']>): SafeHtml | string {
  if (failure.error) return errorText(failure.error);
  if (failure.status_code !== undefined) return `HTTP ${failure.status_code}`;
  const words = failureInWords(failure);
  return `${words[0]!.toUpperCase()}${words.slice(1)}`;
}

/** The outcomes that happened, with how many times. */
const counted = (counts: Readonly<Partial<Record<RecordedOutcome, number>>>) =>
  (Object.entries(counts) as [RecordedOutcome, number][]).filter(([, n]) => n > 0);

const outcomeCounts = (counts: readonly [RecordedOutcome, number][]) =>
  counts.map(([outcome, n]) => html`${outcomeBadge(outcome)} ${n} `);

/**
 * The attempts' outcomes under the badges the log gives them: an `error` attempt that sent nothing (no OAuth 2.0
 * token; kept back by the egress proxy, or credentials that could not be read) is counted as No token or Not
 * sent, not as a Connection error, which would blame an endpoint nothing reached.
 */
function attemptCounts(
  counts: readonly [RecordedOutcome, number][],
  sentNothing: SentNothingCounts,
): SafeHtml[] {
  return counts.flatMap(([outcome, n]) => {
    if (outcome !== 'error') return [html`${outcomeBadge(outcome)} ${n} `];
    const connection = n - sentNothing.no_token - sentNothing.kept_back;
    return [
      connection > 0 ? html`${outcomeBadge(outcome)} ${connection} ` : html``,
      sentNothing.no_token > 0 ? html`${sentNothingBadge('no_token')} ${sentNothing.no_token} ` : html``,
      sentNothing.kept_back > 0 ? html`${sentNothingBadge('kept_back')} ${sentNothing.kept_back} ` : html``,
    ];
  });
}

const percent = (rate: number | null) =>
  rate === null ? '—' : `${(rate * 100).toFixed(rate === 1 ? 0 : 1)}%`;
const ms = (value: number | null) => (value === null ? '—' : `${Math.round(value)} ms`);

/** The health figures with, of the `error` attempts among them, those that sent nothing (by why). */
export type CardHealth = HookHealth & { readonly sentNothing: SentNothingCounts };

/** The hook's health over 24 hours or 7 days: success rate, latency, outcomes, the last error, a chart. */
export function healthCard(hookId: string, health: CardHealth, rule: SuspensionRule): SafeHtml {
  const week = health.hours > 24;
  // The attempts' outcomes; the dropped ones, also in by_outcome, go on a line of their own.
  const outcomes = counted(health.by_outcome).filter(([outcome]) => !isDropped(outcome));
  const dropped = counted(health.dropped);
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
      ${outcomes.length > 0 ? html`<p class="outcome-counts" data-outcome-counts>${attemptCounts(outcomes, health.sentNothing)}</p>` : ''}
      ${
        // Apart from the attempts: events that never were (held ones dropped, erased ones), not the endpoint's.
        dropped.length > 0
          ? html`<p class="outcome-counts" data-dropped>
              Dropped without an attempt: ${outcomeCounts(dropped)}
            </p>`
          : ''
      }
      ${
        health.last_error
          ? html`<p class="muted">
              Last failure ${time(health.last_error.attempted_at)}: ${lastFailure(health.last_error)}
            </p>`
          : ''
      }
      ${suspensionRule(rule)}
    </div>
  </section>`;
}
