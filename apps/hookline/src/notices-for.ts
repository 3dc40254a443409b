import type { Config } from '@hookline/config';
import { noticeSender, smtpMailer, type MonitorDeps } from '@hookline/monitor';
import type { Accounts } from '@hookline/store';

type NoticeSettings = Pick<
  Config,
  | 'HOOKLINE_SMTP_URL'
  | 'HOOKLINE_SMTP_FROM'
  | 'HOOKLINE_PUBLIC_URL'
  | 'HOOKLINE_OPERATOR_WEBHOOK_URL'
  | 'HOOKLINE_OPERATOR_WEBHOOK_SECRET'
  | 'HOOKLINE_BRAND_NAME'
  | 'HOOKLINE_BRAND_SUPPORT_URL'
> & { readonly brandLogo?: Config['brandLogo'] };
type Operator = NonNullable<NonNullable<MonitorDeps['notices']>['operator']>;

/**
 * The monitor's notices: e-mail when HOOKLINE_SMTP_URL is set, the operator's webhook when
 * HOOKLINE_OPERATOR_WEBHOOK_URL is; nothing (activity entries only) otherwise.
 */
export function noticesFor(
  config: NoticeSettings,
  accounts: Pick<Accounts, 'get' | 'create'>,
  producer: Operator['producer'],
): Pick<MonitorDeps, 'notices'> {
  const { HOOKLINE_SMTP_URL: smtp, HOOKLINE_OPERATOR_WEBHOOK_URL: url } = config;
  const secret = config.HOOKLINE_OPERATOR_WEBHOOK_SECRET;
  if (!smtp && !(url && secret)) return {};
  return {
    notices: {
      accounts,
      ...(smtp ? { mailer: smtpMailer(smtp, noticeSender(config)) } : {}),
      ...(url && secret ? { operator: { url, secret, producer } } : {}),
      ...(config.HOOKLINE_PUBLIC_URL ? { publicUrl: config.HOOKLINE_PUBLIC_URL } : {}),
      ...(config.HOOKLINE_BRAND_NAME
        ? {
            brand: {
              name: config.HOOKLINE_BRAND_NAME,
              ...(config.HOOKLINE_BRAND_SUPPORT_URL ? { supportUrl: config.HOOKLINE_BRAND_SUPPORT_URL } : {}),
              // The website serves the logo at a stable address too, for e-mails that outlive a release.
              ...(config.brandLogo && config.HOOKLINE_PUBLIC_URL
                ? { logoUrl: `${config.HOOKLINE_PUBLIC_URL}/brand-logo` }
                : {}),
            },
          }
        : {}),
    },
  };
}
