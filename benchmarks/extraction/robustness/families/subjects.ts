/**
 * Subjects: the subject made neutral (it says nothing of a code or a link), only the site's name,
 * prefixed with a bracketed tag (the site, as lists write it; a gateway's "[EXTERNAL]"), written
 * in another language than the body, or missing altogether. The body, and the answer, stay.
 */
import { withMail, type Case } from '../mail.js';
import { fill, LANGS, langOf, SUBJECTS } from '../phrases.js';
import { topicOf, type Variant } from '../variant.js';

const subject = (name: string, does: string, make: (c: Case, pick: <T>(xs: readonly T[]) => T) => string | undefined | null): Variant => ({
  family: 'subjects',
  name,
  does,
  apply: (c, rng) => {
    const s = make(c, rng.pick);
    return s === null ? undefined : withMail(c, { subject: s });
  },
});

export const SUBJECT_VARIANTS: readonly Variant[] = [
  subject('neutral', '"A message from <site>" in the mail\'s language', (c) => fill(SUBJECTS[langOf(c.lang)].neutral, { site: c.site.name })),
  subject('site name only', "the sender's name and nothing else", (c) => c.site.name),
  subject('bracketed site', '"[<site>] " before the subject, as mailing lists write it', (c) => (c.mail.subject === undefined ? null : `[${c.site.name}] ${c.mail.subject}`)),
  subject('bracketed tag', 'a gateway\'s tag before the subject ("[EXTERNAL]", "[Ext]", "[Notification]")', (c, pick) => (c.mail.subject === undefined ? null : `${pick(['[EXTERNAL]', '[Ext]', '[Notification]'])} ${c.mail.subject}`)),
  subject('translated', "the subject for the mail's purpose in another language than the body", (c, pick) => {
    const own = langOf(c.lang);
    const other = pick(LANGS.filter((l) => l !== own));
    return fill(SUBJECTS[other][topicOf(c) ?? 'neutral'], { site: c.site.name });
  }),
  subject('missing', 'no Subject header at all', (c) => (c.mail.subject === undefined ? null : undefined)),
];
