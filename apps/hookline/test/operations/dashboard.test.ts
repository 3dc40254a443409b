import { checkExpressions, DASHBOARD, read, type DashboardPanel } from './deploy-kit';

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
});
