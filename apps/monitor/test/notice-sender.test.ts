import type { ParsedMail } from 'mailparser';
import { loadConfig } from '@hookline/config';
import { noticeSender, smtpMailer } from '../src';
import { startMailbox } from './mailbox';

// The From of notice e-mails (product.md §16): under an operator's brand, customers never read "hookline",
// and the sender is the first thing a mail client shows. A real SMTP server on 127.0.0.1 receives the mail.

async function firstMail(from: string): Promise<ParsedMail> {
  const mailbox = await startMailbox();
  const mailer = smtpMailer(`smtp://127.0.0.1:${mailbox.port}`, from);
  try {
    await mailer.send('ops@acme.example', {
      subject: 'Hook “CRM” is failing',
      text: 'Why: …',
      html: '<p>Why: …</p>',
    });
  } finally {
    mailer.close();
    await mailbox.close();
  }
  return mailbox.mails[0]!;
}

const settings = (env: Record<string, string>) =>
  loadConfig(
    { DATABASE_URL: 'postgres://127.0.0.1/unused', HOOKLINE_SECRET_KEY: 'a'.repeat(64), ...env },
    'monitor',
  );

describe('the sender of notice e-mails', () => {
  it('is the brand, not hookline, when a brand is set and HOOKLINE_SMTP_FROM is not', async () => {
    const config = settings({ HOOKLINE_BRAND_NAME: 'Voxtel "Connect", Inc.' });
    const mail = await firstMail(noticeSender(config));
    expect(mail.from?.value).toEqual([{ name: 'Voxtel "Connect", Inc.', address: 'webhooks@localhost' }]);
    expect(mail.headers.get('from')).toBeDefined();
    expect(JSON.stringify(mail.from)).not.toMatch(/hookline/i);
  });

  it('is HOOKLINE_SMTP_FROM when it is set, brand or not; hookline’s own without either', async () => {
    const given = settings({
      HOOKLINE_BRAND_NAME: 'Voxtel',
      HOOKLINE_SMTP_FROM: 'Acme hooks <hooks@acme.example>',
    });
    expect((await firstMail(noticeSender(given))).from?.value).toEqual([
      { name: 'Acme hooks', address: 'hooks@acme.example' },
    ]);
    expect((await firstMail(noticeSender(settings({})))).from?.value).toEqual([
      { name: 'hookline', address: 'hookline@localhost' },
    ]);
  });
});
