import type { Config } from '@hookline/config';
import { smtpMailer, type MonitorDeps } from '@hookline/monitor';
import type { Accounts } from '@hookline/store';

/** The monitor's e-mail notices when HOOKLINE_SMTP_URL is set; nothing (activity entries only) otherwise. */
export function noticesFor(
  config: Pick<Config, 'HOOKLINE_SMTP_URL' | 'HOOKLINE_SMTP_FROM' | 'HOOKLINE_PUBLIC_URL'>,
  accounts: Pick<Accounts, 'get'>,
): Pick<MonitorDeps, 'notices'> {
  if (!config.HOOKLINE_SMTP_URL) return {};
  return {
    notices: {
      mailer: smtpMailer(config.HOOKLINE_SMTP_URL, config.HOOKLINE_SMTP_FROM),
      accounts,
      ...(config.HOOKLINE_PUBLIC_URL ? { publicUrl: config.HOOKLINE_PUBLIC_URL } : {}),
    },
  };
}
