import type { CoreDeps } from '../deps.js';
import { htmlSecretMasker, type MaskedHtml } from '../extraction/html-mask.js';
import { secretMasker, secretsToMask, type SecretValue } from '../extraction/secret-masker.js';
import type { ExtractionRules } from '../extraction/rules.js';
import type { Extraction } from '../extraction/types.js';
import { C } from '../store/collections.js';
import type { ExtractionRecord } from './extraction-record.js';
import { knownSecrets, withBodies, type MessageRecord } from './message-record.js';
import { extractForDelivery } from './receive-message.js';

/**
 * What a stored message's texts hide. A record stored before the list was kept gets it from its
 * extraction, or, with none, from the engine run again on the stored message (`withBodies` is read
 * for that), so that no message shows a secret because of its age.
 */
export const secretsOfMessage = async (deps: CoreDeps, message: MessageRecord): Promise<readonly SecretValue[]> => {
  if (message.secrets !== undefined) return message.secrets;
  if (message.extraction_id !== null) {
    const extraction = (await deps.store.get(C.extractions, message.extraction_id)) as ExtractionRecord | undefined;
    if (extraction !== undefined) return knownSecrets(message, extraction)!;
  }
  return secretsToMask(await extractStored(deps, message));
};

/** The engine run again on a stored message, as at delivery (same bounds; the identity's rules when given). */
export const extractStored = async (deps: CoreDeps, message: MessageRecord, rules?: ExtractionRules): Promise<Extraction> => {
  const full = await withBodies(deps, message);
  return extractForDelivery(
    {
      envelopeFrom: message.envelope.mail_from ?? '',
      from: full.from,
      to: full.to,
      subject: full.subject,
      date: full.date,
      messageId: full.message_id,
      headers: full.headers,
      text: full.text,
      html: full.html,
      attachments: full.attachments,
    },
    rules,
  );
};

/** How a view of a message shows its secrets: in its plain texts, and in its HTML. */
export interface MessageMask {
  readonly text: (text: string) => string;
  readonly html: (html: string) => MaskedHtml;
}

/** Secrets shown raw: for a caller holding `secrets:read` who asked to reveal. */
export const SHOW_SECRETS: MessageMask = { text: (text) => text, html: (html) => ({ html, withheld: false }) };

/** A mask hiding the given secrets ({@link secretMasker}, {@link htmlSecretMasker}). */
export const maskOfSecrets = (secrets: readonly SecretValue[]): MessageMask => ({ text: secretMasker(secrets), html: htmlSecretMasker(secrets) });

/** A mask for a stored message's texts and HTML. */
export const maskerOfMessage = async (deps: CoreDeps, message: MessageRecord): Promise<MessageMask> =>
  maskOfSecrets(await secretsOfMessage(deps, message));
