import { Gauge, Registry } from 'prom-client';
import { refreshedOnScrape } from './on-scrape';

describe('gauges refreshed on scrape', () => {
  function twoGauges() {
    const registry = new Registry();
    const a = new Gauge({ name: 'a', help: 'a', registers: [registry] });
    const b = new Gauge({ name: 'b', help: 'b', registers: [registry] });
    return { registry, a, b };
  }

  it('runs one refresh per scrape for all its gauges, none before', async () => {
    const { registry, a, b } = twoGauges();
    let runs = 0;
    refreshedOnScrape(
      [a, b],
      async () => {
        runs += 1;
        a.set(runs);
        b.set(runs * 10);
      },
      () => undefined,
    );
    expect(runs).toBe(0);
    expect(await registry.metrics()).toMatch(/^a 1\n[^]*^b 10$/m);
    expect(await registry.metrics()).toMatch(/^a 2\n[^]*^b 20$/m);
    expect(runs).toBe(2);
  });

  it('answers with the last values when the refresh fails, and reports it', async () => {
    const { registry, a } = twoGauges();
    const errors: unknown[] = [];
    let fail = false;
    refreshedOnScrape(
      [a],
      async () => {
        if (fail) throw new Error('Redis is away');
        a.set(5);
      },
      (error) => errors.push(error),
    );
    await registry.metrics();
    fail = true;
    expect(await registry.metrics()).toMatch(/^a 5$/m);
    expect(errors).toEqual([new Error('Redis is away')]);
  });

  it('does not wait past the bound for a refresh that hangs', async () => {
    const { registry, a } = twoGauges();
    a.set(3);
    refreshedOnScrape(
      [a],
      () => new Promise(() => undefined),
      () => undefined,
    );
    // The scrape still answers (jest's timeout would fail the test otherwise), with the value there was.
    expect(await registry.metrics()).toMatch(/^a 3$/m);
  }, 10_000);
});
