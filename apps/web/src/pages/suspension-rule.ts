import { warnAt } from '@hookline/core';
import { html, type SafeHtml } from '../view/html';
import { plural } from '../view/format';

/** The suspension settings, as the monitor applies them to every hook. */
export interface SuspensionRule {
  /** HOOKLINE_SUSPEND_AFTER_FAILURES */
  readonly failures: number;
  /** HOOKLINE_SUSPEND_AFTER_MS */
  readonly afterMs: number;
}

/** A setting's duration as a person says it: "10 minutes", "1 hour", "90 seconds". */
function durationWords(ms: number): string {
  if (ms >= 3_600_000 && ms % 3_600_000 === 0) return plural(ms / 3_600_000, 'hour');
  if (ms >= 60_000 && ms % 60_000 === 0) return plural(ms / 60_000, 'minute');
  return plural(Math.max(1, Math.round(ms / 1000)), 'second');
}

const inARow = (n: number) => (n === 1 ? 'an event is' : `${n} events in a row are`);

/**
 * What makes a hook Failing and what suspends it, in the configured numbers (product.md §11): a customer
 * watching a hook go wrong knows how far it is from being stopped, and why it was.
 */
export function suspensionRuleText(rule: SuspensionRule): string {
  const when = rule.afterMs > 0 ? `, the first of them at least ${durationWords(rule.afterMs)} earlier` : '';
  return (
    `A hook shows as Failing when ${inARow(warnAt(rule.failures))} not delivered, and is suspended when ` +
    `${inARow(rule.failures)} not delivered${when}. One delivered event ends the run.`
  );
}

export const suspensionRule = (rule: SuspensionRule): SafeHtml =>
  html`<p class="muted" data-suspension-rule>${suspensionRuleText(rule)}</p>`;
