import { HookControl } from '@hookline/suspension';
import { fleetMetrics } from '@hookline/telemetry';
import { machineText, waitUntil } from '@hookline/testing';
import { smtpMailer } from '../src';
import { useMonitorHarness } from './harness';
import { startMailbox } from './mailbox';

// Notices by e-mail (product.md §11): a real SMTP server on 127.0.0.1 receives what a customer would read.

const h = useMonitorHarness();

describe('notices by e-mail', () => {
  it('tells the account once per transition, with two monitors: failing, suspended, re-enabled', async () => {
    const mailbox = await startMailbox();
    h.ctx.onCleanup(() => mailbox.close());
    const account = await h.store.accounts.create({ name: 'Acme', email: 'ops@acme.example' });
    h.hook = await h.store.hooks.create(
      account.id,
      { url: 'https://crm.acme.example/hook', format: 'json', auth: { scheme: 'none' }, description: 'CRM' },
      'operator',
    );
    const notices = () => ({
      notices: {
        mailer: smtpMailer(`smtp://127.0.0.1:${mailbox.port}`, 'Acme webhooks <webhooks@acme.example>'),
        accounts: h.store.accounts,
        publicUrl: 'https://hooks.acme.example',
      },
    });
    const config = { HOOKLINE_SUSPEND_AFTER_FAILURES: 4, HOOKLINE_SUSPEND_AFTER_MS: 300 };
    h.start(config, notices());
    h.start(config, notices());

    const t = Date.now();
    await h.failures(2, t);
    const [failing] = await waitUntil(
      () => (mailbox.mails.length >= 1 ? mailbox.mails : undefined),
      'a notice',
    );
    expect(failing!.subject).toBe('[hookline] Hook “CRM” is failing');
    expect(failing!.to).toMatchObject({ text: 'ops@acme.example' });
    expect(failing!.from).toMatchObject({ text: '"Acme webhooks" <webhooks@acme.example>' });
    expect(failing!.text).toContain('Your hook “CRM” (https://crm.acme.example/hook) is failing');
    expect(failing!.text).toMatch(/Why: 2 consecutive failures .*; the last: the endpoint answered 500\./);

    await h.failures(3, t + 10);
    await h.suspended();
    const suspended = await waitUntil(
      () => mailbox.mails.find((m) => m.subject?.endsWith('was suspended')),
      'the suspension notice',
    );
    // The last 3 failures, each with its status, and the way to the hook's page.
    expect(suspended.text!.match(/^- .* HTTP 500$/gm)).toHaveLength(3);
    expect(suspended.text).toContain(`Open the hook: https://hooks.acme.example/hooks/${h.hook.id}`);
    expect(suspended.html).toContain(
      `<a href="https://hooks.acme.example/hooks/${h.hook.id}">Open the hook</a>`,
    );

    const control = new HookControl({
      redis: h.ctx.redis,
      keys: h.keys,
      hookQueues: h.hookQueues,
      store: h.store,
      holdMax: 10_000,
      signalReady: async () => undefined,
    });
    await control.enable(account.id, h.hook.id, 'deliver', `customer:${account.id}`);
    const enabled = await waitUntil(
      () => mailbox.mails.find((m) => m.subject?.endsWith('was re-enabled')),
      'the re-enable notice',
    );
    expect(enabled.text).toContain('What happened: re-enabled; 0 held events queued for delivery, in order.');
    // Plain words (§15): no id, ISO time, outcome or error code in any of them.
    for (const mail of mailbox.mails) expect(machineText(`${mail.subject}\n${mail.text}`)).toEqual([]);

    // Once each: both monitors read the notices, neither sends one twice.
    await h.consumed();
    // The counter goes up after the mail server has accepted the mail (the mailbox can hold it first): wait for
    // all three, then give a second sending the time to show.
    const counted = async () => (await fleetMetrics(h.metrics.registry).noticesSent.get()).values;
    await waitUntil(async () => (await counted()).length === 3, 'the three notices counted');
    await new Promise((resolve) => setTimeout(resolve, 500));
    const sent = await counted();
    expect(sent.map((v) => [v.labels.kind, v.value]).sort()).toEqual([
      ['hook.enabled', 1],
      ['hook.failing', 1],
      ['hook.suspended', 1],
    ]);
    expect(mailbox.mails.map((m) => m.subject)).toEqual([
      '[hookline] Hook “CRM” is failing',
      '[hookline] Hook “CRM” was suspended',
      '[hookline] Hook “CRM” was re-enabled',
    ]);
  });
});
