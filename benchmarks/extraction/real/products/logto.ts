/**
 * Logto (npm `@logto/connector-smtp`): the default `templates` of the SMTP connector's
 * configuration form (`lib/index.js`, one per usage type: sign-in, register, forgot password,
 * organization invitation, MFA, binding…), filled as `buildMailOptions` does through
 * `replaceSendMessageHandlebars` with the payload's `code` (Logto's six digits, otp), in the part
 * the template's `contentType` names. English only.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repsOf } from '../locales.js';
import { digits } from '../random.js';
import type { Adapter, Rendered } from '../types.js';

const FILE = 'lib/index.js';

interface Template { readonly contentType: string; readonly content: string; readonly subject: string; readonly usageType: string }

const ENTRY = /\{\s*contentType: "([^"]*)",\s*content: "((?:[^"\\]|\\.)*)",\s*subject: "((?:[^"\\]|\\.)*)",\s*usageType: "([^"]*)"\s*\}/g;

/** `{{ name }}` replaced from the payload, as connector-kit's `replaceSendMessageHandlebars` does. */
const handlebars = (s: string, payload: Readonly<Record<string, string>>): string => s.replace(/\{\{\s*(\w+)\s*\}\}/g, (m, k: string) => payload[k] ?? m);

export const logto: Adapter = {
  product: 'logto',
  packages: [{ npm: '@logto/connector-smtp@1.5.4' }],
  render: ({ roots, rng, reps }) => {
    const src = readFileSync(join(roots[0] ?? '', FILE), 'utf8');
    const templates: Template[] = [...src.matchAll(ENTRY)].map((m) => ({ contentType: m[1] ?? '', content: JSON.parse(`"${m[2] ?? ''}"`) as string, subject: JSON.parse(`"${m[3] ?? ''}"`) as string, usageType: m[4] ?? '' }));
    if (templates.length < 4) throw new Error(`only ${templates.length} default templates found in ${FILE}`);
    return templates.flatMap((t) => repsOf(reps).map((n): Rendered => {
      const code = digits(rng(`${t.usageType}:${n}`), 6);
      const body = handlebars(t.content, { code });
      return {
        template: t.usageType,
        lang: 'en',
        subject: handlebars(t.subject, { code }),
        ...(t.contentType === 'text/plain' ? { text: body } : { html: body }),
        fromName: 'Logto',
        secret: { kind: 'otp', value: code },
        source: `${FILE} (defaultMetadata templates, ${t.usageType})`,
      };
    }));
  },
};
