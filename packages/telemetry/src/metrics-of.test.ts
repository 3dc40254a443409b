import { createMetrics, type MetricsOf } from './metrics';

// What each process's /metrics exports: a gauge only another kind of process sets is left out, so that a
// dashboard's line per instance, or a `min` over every process, reads the processes that set it.
describe("each process's metrics", () => {
  const names = async (of: MetricsOf) =>
    (await createMetrics('requests', of).registry.getMetricsAsJSON()).map((m) => m.name);
  const WORKER_GAUGES = [
    'hookline_worker_attached_hooks',
    'hookline_worker_attempts_in_flight',
    'hookline_worker_hooks_waiting_on_egress_proxy',
  ];

  it('the HTTP tier exports neither the workers’ gauges nor the monitor’s', async () => {
    const api = await names('api');
    for (const name of [...WORKER_GAUGES, 'hookline_hooks_suspended']) expect(api).not.toContain(name);
    expect(api).toContain('hookline_events_accepted_total');
  });

  it('a worker exports its own gauges and not the monitor’s; a monitor the other way round', async () => {
    const worker = await names('worker');
    expect(worker).toEqual(expect.arrayContaining(WORKER_GAUGES));
    expect(worker).not.toContain('hookline_hooks_suspended');
    const monitor = await names('monitor');
    expect(monitor).toContain('hookline_hooks_suspended');
    for (const name of WORKER_GAUGES) expect(monitor).not.toContain(name);
  });

  it('the all-in-one process exports them all', async () => {
    expect(await names('all-in-one')).toEqual(
      expect.arrayContaining([...WORKER_GAUGES, 'hookline_hooks_suspended']),
    );
  });
});
