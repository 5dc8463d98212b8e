import * as E from 'fp-ts/lib/Either.js';
import { pipe } from 'fp-ts/lib/function.js';
import * as TE from 'fp-ts/lib/TaskEither.js';
import type { Principal } from '../auth/principal.js';
import type { DomainError } from '../domain/errors.js';
import { webhookNotFound } from '../domain/errors.js';
import { HOUR_MS, iso, isoPlus } from '../domain/time.js';
import { C } from '../store/collections.js';
import { updateWithRetry, write } from '../store/compare-and-set.js';
import type { RotatedSecret, WebhookRecord } from './endpoint.js';
import { newSigningSecret, previewOf, secretContext } from './endpoint.js';
import { sealSecret } from './secret-box.js';
import { loadWebhook } from './webhook-access.js';
import type { WebhookDeps } from './webhook-deps.js';

/** How long a replaced secret keeps signing `X-Signature-Previous`. */
export const ROTATION_OVERLAP_MS = 24 * HOUR_MS;

/**
 * Issues a new signing secret. The replaced one keeps verifying for 24 h: deliveries in that
 * window carry `X-Signature` (new) and `X-Signature-Previous` (old), so receivers can switch
 * secrets at their own pace. A second rotation within the window drops the oldest secret.
 */
export const rotateWebhookSecret =
  (deps: WebhookDeps) =>
  (principal: Principal, id: string): TE.TaskEither<DomainError, RotatedSecret> =>
    pipe(
      () => loadWebhook(deps, principal, id),
      TE.flatMap(() => async () => {
        const secret = newSigningSecret(deps.ids);
        const sealed = sealSecret(deps.webhooks.secretsKey, secret, secretContext(id));
        const now = deps.clock.now();
        const until = isoPlus(now, ROTATION_OVERLAP_MS);
        const outcome = await updateWithRetry<WebhookRecord, void>(deps.store, C.webhooks, id, (current) =>
          write(
            {
              ...current,
              secret_sealed: sealed,
              secret_preview: previewOf(secret),
              previous_secret_sealed: current.secret_sealed,
              previous_secret_until: until,
              rotated_at: iso(now),
              updated_at: iso(now),
            },
            undefined,
          ),
        );
        if (outcome === undefined) return E.left(webhookNotFound(id));
        return E.right({ id, secret, secretPreview: previewOf(secret), rotated_at: iso(now), previous_secret_expires_at: until });
      }),
    );
