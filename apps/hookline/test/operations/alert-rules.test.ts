import { alertNames, promtool, read, README, RULES, RULES_TEST } from './deploy-kit';

// Issue 16: the shipped Prometheus rules fire on what should page someone and stay quiet on a healthy fleet,
// proven by `promtool test rules` on synthetic series (deploy/prometheus/hookline-alerts.test.yml).
describe('Prometheus alert rules (deploy/prometheus)', () => {
  it('are valid rules', () => {
    const { code, output } = promtool(['check', 'rules', 'hookline-alerts.yml']);
    expect({ code, output }).toEqual({ code: 0, output: expect.stringContaining('SUCCESS') });
  });

  it('fire on a synthetic series of each problem and stay quiet on a healthy one (promtool test rules)', () => {
    const { code, output } = promtool(['test', 'rules', 'hookline-alerts.test.yml']);
    if (code !== 0) throw new Error(`promtool test rules failed:\n${output}`);
  });

  it('cover what issue 16 asks for, each tested firing and quiet, each explained in the README', () => {
    const alerts = alertNames(read(RULES));
    expect(alerts).toEqual([
      'HooklineHooksStuck',
      'HooklineEventsWaitingLong',
      'HooklineDeliveryFailureRatioHigh',
      'HooklineNoWorkers',
      'HooklineWorkerSilent',
      'HooklineRedisUnreachable',
      'HooklineRedisReplicasShort',
      'HooklineHistoryLagging',
      'HooklineHistoryDatabaseDown',
      'HooklineMonitorMissing',
    ]);
    const tests = read(RULES_TEST);
    const readme = read(README);
    const operating = readme.slice(readme.indexOf('## Operating'));
    for (const alert of alerts) {
      const cases = [...tests.matchAll(new RegExp(`alertname: ${alert}\\n\\s*exp_alerts:( \\[\\])?`, 'g'))];
      expect({ alert, fires: cases.some((c) => !c[1]), quiet: cases.some((c) => c[1]) }).toEqual({
        alert,
        fires: true,
        quiet: true,
      });
      expect({ alert, inReadme: operating.includes(`\`${alert}\``) }).toEqual({ alert, inReadme: true });
    }
  });

  it('the example scrape configuration is valid and loads the rules', () => {
    const { code, output } = promtool(['check', 'config', 'prometheus.example.yml']);
    expect({ code, output }).toEqual({ code: 0, output: expect.stringContaining('1 rule files found') });
  });
});
