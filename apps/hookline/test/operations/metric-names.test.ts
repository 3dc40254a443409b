import { createMetrics, fleetMetrics } from '@hookline/telemetry';
import { DASHBOARD, metricNamesIn, read, RULES, RULES_TEST } from './deploy-kit';

const SUFFIXES: Record<string, readonly string[]> = {
  histogram: ['_bucket', '_sum', '_count'],
  summary: ['_sum', '_count'],
};

/**
 * Every series name hookline's processes expose on /metrics: the registry every process makes (createMetrics,
 * with prom-client's default process metrics) plus the fleet gauges a monitor adds to it (the all-in-one start
 * has both). Read from the exposition text, as Prometheus reads it.
 */
async function exposedNames(): Promise<Set<string>> {
  const metrics = createMetrics();
  fleetMetrics(metrics.registry);
  const text = await metrics.registry.metrics();
  const names = new Set<string>();
  for (const [, name, type] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm))
    for (const suffix of ['', ...(SUFFIXES[type!] ?? [])]) names.add(`${name}${suffix}`);
  return names;
}

describe('metric names in the rules and the dashboard', () => {
  it('every hookline metric the alert rules, their tests and the dashboard name exists in /metrics', async () => {
    const exposed = await exposedNames();
    for (const [file, text] of [
      ['hookline-alerts.yml', read(RULES)],
      ['hookline-alerts.test.yml', read(RULES_TEST)],
      ['hookline-dashboard.json', read(DASHBOARD)],
    ] as const) {
      const named = metricNamesIn(text);
      expect(named.length).toBeGreaterThan(3);
      expect({ file, missing: named.filter((name) => !exposed.has(name)) }).toEqual({ file, missing: [] });
    }
  });

  it('the dashboard shows every metric hookline defines', async () => {
    const shown = new Set(metricNamesIn(read(DASHBOARD)));
    const defined = [...(await exposedNames())].filter(
      (name) => !name.startsWith('hookline_process_') && !/_(sum|count)$/.test(name),
    );
    expect(defined.filter((name) => !shown.has(name) && !shown.has(`${name}_bucket`))).toEqual([]);
  });
});
