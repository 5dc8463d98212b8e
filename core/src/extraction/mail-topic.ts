import { compileWords } from './lexicon.js';
import type { MessageView } from './segments.js';
import { OTHER_TOPIC_WORDS } from './topic-words.js';

const TOPIC = compileWords(OTHER_TOPIC_WORDS, 'gi');
// The opening of the body says what a mail is about; its footer ("report abuse", "manage your
// subscription") says little, and a long body costs more to scan.
const BODY_CHARS = 1500;
// Distinct topic words in the body that make it a mail about that topic.
const BODY_WORDS = 2;

const distinctHits = (text: string, cap: number): number => {
  const seen = new Set<string>();
  TOPIC.lastIndex = 0;
  for (let m = TOPIC.exec(text); m !== null && seen.size < cap; m = TOPIC.exec(text)) seen.add(m[0].toLowerCase());
  return seen.size;
};

/**
 * How much a mail reads as being about something other than signing in (an order, a report, a
 * backup, a coupon, a monitoring notice): 0 when nothing says so, down to -2 when its subject and
 * the opening of its body both do. A mail-level signal: every candidate of the message carries it,
 * so a number in a cron report or an order confirmation is not taken for a code.
 */
export const otherTopic = (view: MessageView): number => {
  const subject = distinctHits(view.subject, 1);
  const body = view.segments.find((s) => s.source === 'text') ?? view.segments.find((s) => s.source === 'html');
  const inBody = body === undefined ? 0 : distinctHits(body.text.slice(0, Math.min(body.footerAt, BODY_CHARS)), BODY_WORDS);
  const hits = subject + inBody / BODY_WORDS;
  return hits === 0 ? 0 : -hits;
};
