/** Mail for password resets, email verification and sign-up notices, over SMTP (nodemailer). */
import { loadOnce } from '../load-once.js';

export interface Mailer {
  send(message: { to: string; subject: string; text: string }): Promise<void>;
  close(): void;
}

export function createMailer(smtpUrl: string, from: string): Mailer {
  // nodemailer is loaded with the first message, not at start: memory (with ioredis, 3.7 MB of RSS,
  // CHANGELOG) for mail that many installations never send. It opens no connection before.
  // A failed load is not kept: the next message tries again.
  const opened = loadOnce(async () => (await import('nodemailer')).default.createTransport(smtpUrl));
  return {
    async send(message) {
      await (await opened()).sendMail({ from, ...message });
    },
    // Nothing to close before the first message; a transport that failed to load has nothing either.
    close: () => opened.ifLoaded((transport) => transport.close()),
  };
}
