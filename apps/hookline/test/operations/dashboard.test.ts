import { readFileSync } from 'node:fs';
import { checkExpressions, DASHBOARD, read, type DashboardPanel } from './deploy-kit';
import { checkDashboards } from './grafana-check';

// Grafana's own variables are not PromQL; promtool checks the queries with typical values in their place.
const asPromQL = (expr: string) => expr.replace(/\$__rate_interval|\$__range|\$__interval/g, '5m');

describe('Grafana dashboard (deploy/grafana)', () => {
  const dashboard = JSON.parse(read(DASHBOARD)) as {
    title: string;
    uid: string;
    schemaVersion: number;
    time: { from: string; to: string };
    templating: { list: { name: string; type: string; query: string }[] };
    panels: DashboardPanel[];
  };
  const panels = dashboard.panels.filter((p) => p.type !== 'row');

  it('has what Grafana needs to import it: title, uid, schemaVersion, time range, panels', () => {
    expect(dashboard).toMatchObject({
      title: 'hookline',
      uid: expect.stringMatching(/^[a-zA-Z0-9_-]{1,40}$/),
      schemaVersion: expect.any(Number),
      time: { from: expect.any(String), to: expect.any(String) },
    });
    expect(dashboard.schemaVersion).toBeGreaterThanOrEqual(36); // panels with datasource uids
    expect(panels.length).toBeGreaterThan(10);
    const ids = dashboard.panels.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('every panel has a place, a Prometheus data source picked by the variable, and queries', () => {
    expect(dashboard.templating.list).toContainEqual(
      expect.objectContaining({ name: 'datasource', type: 'datasource', query: 'prometheus' }),
    );
    for (const panel of panels) {
      const { gridPos } = panel;
      expect({
        title: panel.title,
        fits: gridPos.x >= 0 && gridPos.x + gridPos.w <= 24 && gridPos.h > 0,
      }).toEqual({
        title: panel.title,
        fits: true,
      });
      expect(panel.datasource).toEqual({ type: 'prometheus', uid: '${datasource}' });
      expect(panel.targets?.length).toBeGreaterThan(0);
      for (const target of panel.targets ?? []) {
        expect(target.refId).toMatch(/^[A-Z]$/);
        expect(target.expr).toMatch(/hookline_/);
      }
    }
  });

  it('every query is valid PromQL (promtool)', () => {
    const exprs = panels.flatMap((p) => (p.targets ?? []).map((t) => asPromQL(t.expr)));
    const { code, output } = checkExpressions(exprs);
    if (code !== 0) throw new Error(`a dashboard query is not valid PromQL:\n${output}`);
  });

  describe("against Grafana's own schema", () => {
    const text = read(DASHBOARD);
    const requires = (JSON.parse(text) as { __requires?: { type: string; id: string; version: string }[] })
      .__requires;
    const schemaVersion = (
      JSON.parse(readFileSync(require.resolve('@grafana/schema/package.json'), 'utf8')) as { version: string }
    ).version;
    const minor = (version: string) => version.split('.').slice(0, 2).join('.');

    it('declares the Grafana release it is written for, and the schema checked is that release', () => {
      const grafana = requires?.find((r) => r.type === 'grafana');
      expect(grafana?.version).toMatch(/^\d+\.\d+\.\d+$/);
      expect(minor(schemaVersion)).toBe(minor(grafana!.version));
      // Grafana's import screen lists these: every panel plugin used and the data source type.
      const declared = requires!.filter((r) => r.type !== 'grafana').map((r) => r.id);
      expect(declared.sort()).toEqual(['prometheus', ...new Set(panels.map((p) => p.type))].sort());
    });

    it('is valid against that schema: known keys, values of the right type, enum values Grafana accepts', () => {
      const errors = checkDashboards({ dashboard: text });
      expect(
        errors.map((e) => `${DASHBOARD.replace(/.*\/deploy\//, 'deploy/')}:${e.line}: ${e.message}`),
      ).toEqual([]);
    }, 60_000);

    it('the check refuses what Grafana would refuse, naming the line', () => {
      type Node = Record<string | number, unknown>;
      const broken = (path: readonly (string | number)[], value: unknown): string => {
        const copy = JSON.parse(text) as Node;
        let at = copy;
        for (const key of path.slice(0, -1)) at = at[key] as Node;
        at[path[path.length - 1]!] = value;
        return JSON.stringify(copy, null, 2);
      };
      const panel = ['panels', dashboard.panels.findIndex((p) => p.type === 'timeseries')];
      const findings = checkDashboards({
        unknownKey: broken(['refreshRate'], '30s'),
        legendMode: broken([...panel, 'options', 'legend', 'displayMode'], 'lists'),
        optionName: broken([...panel, 'options', 'legnd'], {}),
        gridWidth: broken([...panel, 'gridPos', 'w'], '8'),
        drawStyle: broken([...panel, 'fieldConfig', 'defaults', 'custom'], { drawStyle: 'curvy' }),
        panelType: broken([...panel, 'type'], 'graph'),
        cursorSync: broken(['graphTooltip'], 7),
      });
      const by = (name: string) => findings.filter((f) => f.dashboard === name);
      expect(by('unknownKey')[0]?.message).toMatch(
        /'"refreshRate"' does not exist in type 'GrafanaDashboard'/,
      );
      expect(by('legendMode')[0]?.message).toMatch(/"lists"/);
      expect(by('optionName')[0]?.message).toMatch(/'"legnd"' does not exist/);
      expect(by('gridWidth')[0]?.message).toMatch(/'string' is not assignable to type 'number'/);
      expect(by('drawStyle')[0]?.message).toMatch(/"curvy"/);
      expect(by('panelType')).not.toHaveLength(0);
      expect(by('cursorSync')[0]?.message).toMatch(/7/);
      for (const f of findings) expect(f.line).toBeGreaterThan(1);
      expect(findings.filter((f) => f.dashboard === '(schema)')).toEqual([]);
    }, 60_000);
  });
});
