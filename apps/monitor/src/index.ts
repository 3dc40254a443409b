export { startMonitor, type MonitorDeps, type RunningMonitor } from './start-monitor';
export { noticeSender, smtpMailer, type Mailer } from './notices/mailer';
export { noticeMail, type MailBrand, type NoticeMail } from './notices/notice-mail';
