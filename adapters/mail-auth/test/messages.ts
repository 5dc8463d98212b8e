// Test mail: an RSA key pair made per run, its DKIM record, and messages signed with it.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { dkimSign } from 'mailauth';

export const randomLabel = (prefix: string): string => `${prefix}-${randomBytes(4).toString('hex')}`;

export interface DkimKey {
  readonly selector: string;
  readonly privateKey: string;
  /** The `v=DKIM1` TXT record, cut into character-strings of at most 255 bytes. */
  readonly record: readonly string[];
}

/** A fresh 2048-bit key; its record is long enough to need several character-strings. */
export const generateDkimKey = (selector: string): DkimKey => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const spki = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
  const text = `v=DKIM1; k=rsa; p=${spki}`;
  const record = text.match(/.{1,200}/g) ?? [];
  return { selector, privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), record };
};

export interface Mail {
  readonly from: string;
  readonly to?: string;
  readonly subject?: string;
  readonly body?: string;
}

/** A plain RFC 5322 message with CRLF line ends. */
export const buildMessage = (mail: Mail): string =>
  [
    `From: ${mail.from}`,
    `To: ${mail.to ?? 'someone@inbox.test'}`,
    `Subject: ${mail.subject ?? 'Your sign-in code'}`,
    `Date: ${new Date().toUTCString()}`,
    `Message-ID: <${randomBytes(8).toString('hex')}@mail.test>`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    '',
    mail.body ?? 'Your code is 482913.',
    '',
  ].join('\r\n');

/** The message with a DKIM-Signature of `domain` prepended, as a signing MTA would send it. */
export const signMessage = async (message: string, domain: string, key: DkimKey): Promise<string> => {
  // The signer reads its keys from `signatureData` only; the top-level fields name the defaults.
  const signature = { signingDomain: domain, selector: key.selector, privateKey: key.privateKey };
  const { signatures, errors } = await dkimSign(message, { ...signature, canonicalization: 'relaxed/relaxed', signatureData: [signature] });
  if (errors.length > 0 || !signatures.includes('DKIM-Signature')) throw new Error(`signing failed: ${String(errors)}`);
  return signatures + message;
};

export const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
