import type { Page } from 'playwright-core';

/**
 * WCAG 2.2 success criterion 2.5.8 (target size, minimum), measured in the page as it is laid out now: every
 * visible interactive element is at least 24 × 24 CSS px, or is exempt as the criterion allows:
 * - spacing: a 24 px circle centred on its box touches no other target, nor another small target's circle;
 * - inline: a link within a sentence (its block has text of its own besides links), sized by the text's
 *   line height.
 * Answers the targets that fail, as "what: width × height", and those that pass only by their spacing: the
 * website's own rule is stricter than the criterion and wants every target 24 px (inline links aside), so a
 * crowded page later cannot turn a spaced target into a failing one.
 */
export interface TargetSizes {
  /** Targets that fail WCAG 2.5.8 (neither 24 px, nor spaced, nor inline). */
  readonly failing: string[];
  /** Targets under 24 px that pass only by being spaced: the website's own rule allows none. */
  readonly spacedOnly: string[];
}

export async function measureTargets(page: Page): Promise<TargetSizes> {
  return (await page.evaluate(`(() => {
    const MIN = 24;
    // A checkbox or radio button is also ticked by a click on its label: its target is both boxes together.
    const targetBox = (el) => {
      const r = el.getBoundingClientRect();
      const boxes = [r, ...[...(el.labels || [])].map((l) => l.getBoundingClientRect())].filter((b) => b.width > 0);
      if (el.type !== 'checkbox' && el.type !== 'radio' || boxes.length === 1) return r;
      const left = Math.min(...boxes.map((b) => b.left)), top = Math.min(...boxes.map((b) => b.top));
      const right = Math.max(...boxes.map((b) => b.right)), bottom = Math.max(...boxes.map((b) => b.bottom));
      return { left, top, right, bottom, width: right - left, height: bottom - top };
    };
    const selector = 'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"], [tabindex]:not([tabindex="-1"])';
    const targets = [...document.querySelectorAll(selector)]
      .map((el) => ({ el, r: targetBox(el) }))
      .filter(({ el, r }) => {
        const style = getComputedStyle(el);
        if (style.visibility === 'hidden' || style.display === 'none') return false;
        // Visually hidden (1 px, clipped) or placed off the page until focused, like a skip link.
        if (r.width <= 1 || r.height <= 1) return false;
        return r.bottom + scrollY > 0 && r.right + scrollX > 0;
      });
    const small = ({ r }) => r.width < MIN - 0.01 || r.height < MIN - 0.01;
    const centre = ({ r }) => ({ x: r.left + r.width / 2, y: r.top + r.height / 2 });
    const distanceToBox = (p, r) => Math.hypot(
      Math.max(r.left - p.x, 0, p.x - r.right),
      Math.max(r.top - p.y, 0, p.y - r.bottom),
    );
    const inSentence = (el) => {
      if (el.tagName !== 'A' || getComputedStyle(el).display !== 'inline') return false;
      let block = el.parentElement;
      while (block && getComputedStyle(block).display.startsWith('inline')) block = block.parentElement;
      if (!block) return false;
      const copy = block.cloneNode(true);
      copy.querySelectorAll('a, button, input, select, textarea').forEach((e) => e.remove());
      return /[A-Za-z]{2}/.test(copy.textContent || '');
    };
    const describe = (el) => {
      const name = (el.getAttribute('aria-label') || el.textContent || el.getAttribute('value') || el.getAttribute('name') || '').trim().replace(/\\s+/g, ' ').slice(0, 40);
      const type = el.getAttribute('type');
      return el.tagName.toLowerCase() + (type ? '[' + type + ']' : '') + ' "' + name + '"';
    };
    const failing = [];
    const spacedOnly = [];
    const line = (t) => describe(t.el) + ': ' + t.r.width.toFixed(1) + ' × ' + t.r.height.toFixed(1);
    for (const t of targets) {
      if (!small(t) || inSentence(t.el)) continue;
      spacedOnly.push(line(t));
      const c = centre(t);
      const crowded = targets.some((o) => {
        if (o === t || o.el.contains(t.el) || t.el.contains(o.el)) return false;
        if (small(o) && !inSentence(o.el)) {
          const oc = centre(o);
          return Math.hypot(c.x - oc.x, c.y - oc.y) < MIN;
        }
        return distanceToBox(c, o.r) < MIN / 2;
      });
      if (crowded) failing.push(line(t));
    }
    return { failing, spacedOnly: spacedOnly.filter((l) => !failing.includes(l)) };
  })()`)) as TargetSizes;
}
