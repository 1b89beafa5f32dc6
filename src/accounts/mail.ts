/** Mail for password resets, email verification and sign-up notices, over SMTP (nodemailer). */
import type { Transporter } from 'nodemailer';

export interface Mailer {
  send(message: { to: string; subject: string; text: string }): Promise<void>;
  close(): void;
}

export function createMailer(smtpUrl: string, from: string): Mailer {
  // nodemailer is loaded with the first message, not at start: about 10 MB of the process's memory
  // (docs/performance.md) for mail that many installations never send. It opens no connection before.
  let transport: Promise<Transporter> | undefined;
  const opened = () => (transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(smtpUrl)));
  return {
    async send(message) {
      await (await opened()).sendMail({ from, ...message });
    },
    close: () => void transport?.then((t) => t.close()),
  };
}
