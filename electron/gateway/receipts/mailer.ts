/**
 * Receipts by email through the merchant's own mail server (SMTP). A server that is down or refuses
 * is reported within a few seconds in words, and nothing about the transaction changes.
 */
import { holdsCardNumber } from '../card-number-search';

export class MailError extends Error {}

export interface MailServer {
  host: string;
  port: number;
  security: 'starttls' | 'tls' | 'none';
  user: string;
  password: string;
  from: string;
}

export interface ReceiptMail {
  to: string;
  subject: string;
  /** The receipt's text lines, as printed. */
  lines: readonly string[];
}

/** What was typed is not repeated back: a card number typed into the wrong field must go no further. */
export const NOT_AN_ADDRESS = 'That is not an email address. Check it and send again.';

const EMAIL = /^[^\s@<>(),;:"]{1,64}@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*$/;

/** An address to send a receipt to; one that holds a card number is refused as the API refuses it. */
export function isEmailAddress(text: string): boolean {
  return text.length <= 254 && EMAIL.test(text) && !holdsCardNumber(text);
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export async function sendReceiptMail(
  server: MailServer,
  mail: ReceiptMail,
  options: { timeoutMs?: number } = {},
): Promise<string> {
  if (!server.host) {
    throw new MailError(
      'No mail server is set. Set the SMTP server in Settings → Receipts & printer to email receipts.',
    );
  }
  if (!server.from) throw new MailError('No sender address is set. Set it in Settings → Receipts & printer.');
  if (!isEmailAddress(mail.to)) {
    throw new MailError(NOT_AN_ADDRESS);
  }
  const timeoutMs = options.timeoutMs ?? 5_000;
  // Loaded when a receipt is first mailed: most engines never mail one, and the mailer would
  // otherwise be three megabytes of the engine's live heap from its start.
  const { createTransport } = await import('nodemailer');
  const transport = createTransport({
    host: server.host,
    port: server.port,
    secure: server.security === 'tls',
    requireTLS: server.security === 'starttls',
    ignoreTLS: server.security === 'none',
    ...(server.user && { auth: { user: server.user, pass: server.password } }),
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    dnsTimeout: timeoutMs,
  });
  const where = `${server.host}:${server.port}`;
  try {
    await transport.sendMail({
      from: server.from,
      to: mail.to,
      subject: mail.subject,
      text: `${mail.lines.join('\n')}\n`,
      html:
        '<pre style="font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 14px">' +
        `${mail.lines.map(escapeHtml).join('\n')}</pre>`,
    });
  } catch (error) {
    throw new MailError(mailProblem(where, error as NodeJS.ErrnoException & { responseCode?: number }));
  } finally {
    transport.close();
  }
  return `Receipt emailed to ${mail.to}.`;
}

function mailProblem(where: string, error: NodeJS.ErrnoException & { responseCode?: number }): string {
  if (error.code === 'EAUTH') {
    return `The mail server ${where} refused the user name or password. Check them in Settings → Receipts & printer.`;
  }
  if (error.code === 'ECONNREFUSED' || /ECONNREFUSED/.test(error.message)) {
    return `The mail server ${where} refused the connection. Check its address and port in Settings → Receipts & printer.`;
  }
  if (error.code === 'ETIMEDOUT' || error.code === 'ETIMEOUT') {
    return `The mail server ${where} did not answer in time. Check the network, then send again.`;
  }
  if (error.code === 'EDNS' || error.code === 'ENOTFOUND') {
    return `No mail server is known by the name ${where.split(':')[0]}. Check it in Settings → Receipts & printer.`;
  }
  if (error.code === 'EENVELOPE' || (error.responseCode !== undefined && error.responseCode >= 500)) {
    return `The mail server ${where} refused the email (${error.responseCode ?? error.code}). Check the address, then send again.`;
  }
  if (error.code === 'ETLS' || error.code === 'ESOCKET') {
    return `The mail server ${where} could not be reached securely (${error.code}). Check its port and security setting.`;
  }
  return `The mail server ${where} could not send the receipt (${error.code ?? 'no answer'}). Try again in a moment.`;
}
