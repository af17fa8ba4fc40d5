/**
 * The mail server for emailed receipts: a real SMTP server on a loopback port of its own, plain text
 * with no login (smtp_security none), that parses each mail it takes and keeps it.
 */
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface MailServer {
  /** Its port on 127.0.0.1 (smtp_port). */
  port: number;
  /** The mails it has taken, parsed, oldest first. */
  mails: ParsedMail[];
  close(): Promise<void>;
}

export async function startMailServer(): Promise<MailServer> {
  const mails: ParsedMail[] = [];
  const smtp = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (mail) => {
          mails.push(mail);
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  return {
    port: (smtp.server.address() as { port: number }).port,
    mails,
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}
