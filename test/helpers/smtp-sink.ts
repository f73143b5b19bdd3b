// A local SMTP server (the smtp-server package) that keeps every message it is given, for tests of
// e-mail: each message's envelope recipients and its MIME parts, decoded (quoted-printable, base64).
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

interface MimePart {
  headers: Map<string, string>;
  contentType: string;
  /** The Content-ID without its angle brackets, for inline images. */
  cid?: string;
  body: Buffer;
}

export interface SunkMail {
  to: string[];
  headers: Map<string, string>;
  subject: string;
  parts: MimePart[];
  text: string;
  html: string;
  images: MimePart[];
}

function splitHeaders(raw: string): { headers: Map<string, string>; body: string } {
  const at = raw.indexOf('\r\n\r\n');
  const head = at < 0 ? raw : raw.slice(0, at);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const i = line.indexOf(':');
    if (i > 0) headers.set(line.slice(0, i).trim().toLowerCase(), line.slice(i + 1).trim());
  }
  return { headers, body: at < 0 ? '' : raw.slice(at + 4) };
}

function decode(body: string, encoding: string | undefined): Buffer {
  switch ((encoding ?? '').toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64');
    case 'quoted-printable':
      return Buffer.from(
        body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16))),
        'latin1',
      );
    default:
      return Buffer.from(body, 'utf8');
  }
}

/** A header with RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`) as text. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QB])\?([^?]*)\?=/gi, (_m, _charset: string, enc: string, text: string) =>
      enc.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : decode(text.replace(/_/g, ' '), 'quoted-printable').toString('utf8'),
    );
}

function parts(raw: string): MimePart[] {
  const { headers, body } = splitHeaders(raw);
  const contentType = headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (contentType.toLowerCase().startsWith('multipart/') && boundary) {
    return body
      .split(`--${boundary}`)
      .slice(1)
      .filter((p) => !p.startsWith('--'))
      .flatMap((p) => parts(p.replace(/^\r\n/, '')));
  }
  const cid = headers.get('content-id')?.replace(/^<|>$/g, '');
  return [{ headers, contentType: contentType.split(';')[0]!.trim().toLowerCase(), cid, body: decode(body, headers.get('content-transfer-encoding')) }];
}

function parseMail(raw: string, to: string[]): SunkMail {
  const { headers } = splitHeaders(raw);
  const all = parts(raw);
  return {
    to,
    headers,
    subject: decodeWords(headers.get('subject') ?? ''),
    parts: all,
    text: all.find((p) => p.contentType === 'text/plain')?.body.toString('utf8') ?? '',
    html: all.find((p) => p.contentType === 'text/html')?.body.toString('utf8') ?? '',
    images: all.filter((p) => p.contentType.startsWith('image/')),
  };
}

export interface SmtpSink {
  url: string;
  mails: SunkMail[];
  /** Waits until a message to `to` matching `pick` has arrived (10 s at most) and returns it. */
  waitFor(to: string, pick?: (m: SunkMail) => boolean): Promise<SunkMail>;
  /** The messages to one address so far. */
  to(address: string): SunkMail[];
  close(): Promise<void>;
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const mails: SunkMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push(
          parseMail(
            Buffer.concat(chunks).toString('utf8'),
            session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          ),
        );
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  const to = (address: string) => mails.filter((m) => m.to.includes(address.toLowerCase()));
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    to,
    async waitFor(address, pick = () => true) {
      const end = Date.now() + 10_000;
      for (;;) {
        const found = to(address).find(pick);
        if (found) return found;
        if (Date.now() > end) throw new Error(`no e-mail to ${address} within 10 s (${mails.length} others)`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
