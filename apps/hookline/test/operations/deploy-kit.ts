import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The operations kit shipped with the code (deploy/), as the tests read it. */
export const DEPLOY = join(__dirname, '../../../../deploy');
export const PROMETHEUS_DIR = join(DEPLOY, 'prometheus');
export const RULES = join(PROMETHEUS_DIR, 'hookline-alerts.yml');
export const RULES_TEST = join(PROMETHEUS_DIR, 'hookline-alerts.test.yml');
export const SCRAPE_CONFIG = join(PROMETHEUS_DIR, 'prometheus.example.yml');
export const DASHBOARD = join(DEPLOY, 'grafana/hookline-dashboard.json');
export const README = join(DEPLOY, '../README.md');

export const read = (path: string): string => readFileSync(path, 'utf8');

/**
 * Runs promtool (from Debian's `prometheus` package) and returns its exit code and output. A missing promtool
 * fails the test that needs it, saying how to get it: the rules are part of the product, and a suite that
 * skipped them would pass with rules nobody has run.
 */
export function promtool(args: readonly string[], cwd = PROMETHEUS_DIR): { code: number; output: string } {
  const run = spawnSync('promtool', args, { cwd, encoding: 'utf8', timeout: 60_000 });
  if ((run.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT')
    throw new Error(
      'promtool is not installed, and the alert rules cannot be tested without it. Install it with ' +
        '`sudo apt-get install prometheus` (Debian/Ubuntu; .ci/run does this) or put the promtool binary of a ' +
        'Prometheus release (https://prometheus.io/download/) on the PATH.',
    );
  if (run.error) throw run.error;
  return { code: run.status ?? 1, output: `${run.stdout}${run.stderr}` };
}

/** `promtool check rules` on PromQL expressions given as recording rules: a syntax check of each. */
export function checkExpressions(exprs: readonly string[]): { code: number; output: string } {
  const dir = mkdtempSync(join(tmpdir(), 'hookline-exprs-'));
  try {
    const rules = exprs.map(
      (expr, i) => `      - record: dashboard:expr_${i}\n        expr: ${JSON.stringify(expr)}`,
    );
    writeFileSync(join(dir, 'exprs.yml'), `groups:\n  - name: dashboard\n    rules:\n${rules.join('\n')}\n`);
    return promtool(['check', 'rules', 'exprs.yml'], dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Every hookline metric name a text mentions (queries, annotations, descriptions). */
export function metricNamesIn(text: string): string[] {
  return [...new Set(text.match(/\bhookline_[a-z0-9_]+\b/g) ?? [])].sort();
}

/** The names of the alerts in the rules file, in order. */
export function alertNames(rules: string): string[] {
  return [...rules.matchAll(/^\s*- alert: (\w+)$/gm)].map((m) => m[1]!);
}

export interface DashboardPanel {
  readonly id: number;
  readonly type: string;
  readonly title: string;
  readonly gridPos: { h: number; w: number; x: number; y: number };
  readonly datasource?: { type: string; uid: string };
  readonly targets?: { refId: string; expr: string; datasource?: { type: string; uid: string } }[];
}
