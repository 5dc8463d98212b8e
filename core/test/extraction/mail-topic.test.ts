import test from 'ava';
import { scoreCandidates } from '../../src/index.js';
import { otherTopic } from '../../src/extraction/mail-topic.js';
import { viewMessage } from '../../src/extraction/segments.js';
import { message } from './helpers.js';

const topicOf = (subject: string, text: string): number => otherTopic(viewMessage(message({ subject, text })));

test('otherTopic: mail about an order, a report, a backup or a coupon reads as another topic, in several languages', (t) => {
  const mails: [string, string][] = [
    ['Cron <root@db1> /usr/local/bin/nightly.sh', 'Backup completed in 312 s. 48213 files, job 582910 succeeded.'],
    ['Your order #582013 has shipped', 'Tracking number 1Z9990482. Your invoice is attached.'],
    ['Ihre Bestellung 58201', 'Vielen Dank für Ihre Bestellung. Die Rechnung finden Sie im Anhang.'],
    ['Votre commande 582013', 'Votre facture et le suivi de livraison sont disponibles.'],
    ['Ваш заказ 582013 оформлен', 'Счет на оплату и информация о доставке.'],
    ['ご注文ありがとうございます', 'ご注文番号 582013。発送のお知らせ。'],
    ['Weekly security scan report', 'Vulnerability scan finished: 3 threats, 12 warnings.'],
  ];
  for (const [subject, text] of mails) t.true(topicOf(subject, text) <= -1, subject);
});

test('otherTopic: a sign-in mail has no other topic', (t) => {
  t.is(topicOf('Your sign-in code', 'Your sign-in code is 582013. It expires in 10 minutes.'), 0);
  t.is(topicOf('Bestätige deine E-Mail-Adresse', 'Klicke auf den Link, um deine Adresse zu bestätigen.'), 0);
  t.is(topicOf('Código de verificación', 'Tu código es 582013.'), 0);
});

test('extract: every candidate of a mail about another topic carries the mail-level signal', (t) => {
  const candidates = scoreCandidates(message({ subject: 'Your order #582013 has shipped', text: 'Order 582013 shipped. Invoice 771203 attached. Tracking 48213901.' }));
  t.true(candidates.length > 0);
  for (const c of candidates) t.true((c.evidence.signals.other_topic ?? 0) < 0, c.value);
});

test('otherTopic: a monitoring notice reads as another topic', (t) => {
  t.true(topicOf('** PROBLEM Service Alert: web1/HTTP is CRITICAL **', 'Notification Type: PROBLEM\nService: HTTP\nState: CRITICAL') <= -1);
});

test('subjectSilent: a subject asking to confirm, sign in or join speaks for a secret, in several languages', (t) => {
  const silent = (subject: string): boolean => viewMessage(message({ subject, text: 'Hello.' })).subjectSilent();
  for (const subject of ['Vahvista rekisteröitymispyyntösi', 'Potvrdite svoju prijavu', 'Bekräfta din registrering', 'Kinnita oma registreerimine']) {
    t.false(silent(subject), subject);
  }
  for (const subject of ['Ana replied to your comment', 'Nowy komentarz w wątku „Wydanie 2.4”']) t.true(silent(subject), subject);
});
