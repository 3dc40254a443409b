import nodemailer from 'nodemailer';
import type { NoticeMail } from './notice-mail';

export interface Mailer {
  send(to: string, mail: NoticeMail): Promise<void>;
  close(): void;
}

/** SMTP through nodemailer: `smtp://` (STARTTLS when offered) or `smtps://`, credentials in the URL. */
export function smtpMailer(url: string, from: string): Mailer {
  const transport = nodemailer.createTransport(url);
  return {
    async send(to, mail) {
      await transport.sendMail({ from, to, subject: mail.subject, text: mail.text, html: mail.html });
    },
    close: () => transport.close(),
  };
}

/** The From when HOOKLINE_SMTP_FROM is unset and no brand is: hookline's own. */
export const DEFAULT_SENDER = 'hookline <hookline@localhost>';

/**
 * The From of notice e-mails: HOOKLINE_SMTP_FROM when set; otherwise, under an operator's brand, the brand's name
 * (a mail client shows the sender first, and with a brand customers never read "hookline", product.md §16),
 * quoted as RFC 5322 wants a display name with commas or quotes in it; otherwise hookline's own.
 */
export function noticeSender(config: {
  readonly HOOKLINE_SMTP_FROM?: string | undefined;
  readonly HOOKLINE_BRAND_NAME?: string | undefined;
}): string {
  if (config.HOOKLINE_SMTP_FROM) return config.HOOKLINE_SMTP_FROM;
  const brand = config.HOOKLINE_BRAND_NAME;
  if (!brand) return DEFAULT_SENDER;
  return `"${brand.replace(/["\\]/g, (c) => `\\${c}`)}" <webhooks@localhost>`;
}
