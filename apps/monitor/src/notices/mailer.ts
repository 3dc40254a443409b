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
