import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';

// Read on first use: every suite imports this package, few run axe.
let axeSource: string | undefined;

/**
 * axe-core's violations on the page as it is now, one line each ("rule: target | target"). axe is evaluated
 * over the debugging protocol, so the page's CSP stays as it is.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  axeSource ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(axeSource);
  // A string, run in the page: this package is compiled without the DOM's types.
  return (await page.evaluate(`axe
    .run(document, { resultTypes: ['violations'] })
    .then((r) => r.violations.map((v) => v.id + ': ' + v.nodes.map((n) => String(n.target)).join(' | ')))`)) as string[];
}
