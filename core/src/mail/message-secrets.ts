import type { CoreDeps } from '../deps.js';
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

/** A masker for a stored message's texts ({@link secretMasker}). */
export const maskerOfMessage = async (deps: CoreDeps, message: MessageRecord): Promise<(text: string) => string> =>
  secretMasker(await secretsOfMessage(deps, message));
