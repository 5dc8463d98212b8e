import test from 'ava';
import fc from 'fast-check';
import { extract } from '../../src/index.js';
import { message } from './helpers.js';

// One sentence per supported language that hands the reader a code; written for these tests.
const SENTENCES: Record<string, string> = {
  en: 'Your verification code is {c}.',
  de: 'Ihr Bestätigungscode lautet {c}.',
  fr: 'Votre code de vérification est {c}.',
  es: 'Tu código de verificación es {c}.',
  pt: 'Seu código de verificação é {c}.',
  it: 'Il tuo codice di verifica è {c}.',
  nl: 'Je verificatiecode is {c}.',
  pl: 'Twój kod weryfikacyjny to {c}.',
  tr: 'Doğrulama kodunuz: {c}',
  ru: 'Ваш код подтверждения: {c}',
  uk: 'Ваш код підтвердження: {c}',
  ar: 'رمز التحقق الخاص بك هو {c}',
  he: 'קוד האימות שלך הוא {c}',
  hi: 'आपका सत्यापन कोड {c} है।',
  th: 'รหัสยืนยันของคุณคือ {c}',
  vi: 'Mã xác minh của bạn là {c}.',
  id: 'Kode verifikasi Anda adalah {c}.',
  ja: '確認コードは{c}です。',
  zh: '您的验证码是{c}。',
  ko: '인증 코드는 {c}입니다.',
};

const SIGN_IN: Record<string, string> = { en: 'Sign in', de: 'Anmelden', fr: 'Se connecter', es: 'Iniciar sesión', ru: 'Войти', ja: 'ログイン', zh: '登录', ko: '로그인', ar: 'تسجيل الدخول', tr: 'Giriş yap' };
const UNSUBSCRIBE: Record<string, string> = { en: 'Unsubscribe', de: 'Abmelden vom Newsletter', fr: 'Se désabonner', es: 'Darse de baja', ru: 'Отписаться', ja: '配信停止', zh: '退订', ko: '수신 거부', ar: 'إلغاء الاشتراك', tr: 'Abonelikten çık' };

// Prose without digits or capitals, so the only code-shaped token is the one we place.
const word = fc.stringMatching(/^[a-zà-ÿ]{1,12}$/);
const prose = fc.array(fc.array(word, { minLength: 3, maxLength: 12 }).map((ws) => `${ws.join(' ')}.`), { maxLength: 4 }).map((ss) => ss.join(' '));
const code = fc.oneof(fc.stringMatching(/^[1-9][0-9]{5,7}$/).filter((c) => !/^(19|20)\d\d$/.test(c)), fc.stringMatching(/^[A-Z]{2}[0-9][A-Z0-9]{3,5}$/));

test('property: a code placed in arbitrary prose in any supported language is found', (t) => {
  fc.assert(
    fc.property(fc.constantFrom(...Object.keys(SENTENCES)), code, prose, prose, fc.constantFrom('text', 'html'), (lang, c, before, after, part) => {
      const sentence = (SENTENCES[lang] ?? '').replace('{c}', c);
      const body = `${before}\n\n${sentence}\n\n${after}`;
      const m = part === 'text' ? message({ text: body }) : message({ html: body.split('\n\n').map((p) => `<p>${p}</p>`).join('') });
      const top = extract(m).top;
      return top?.type === 'otp' && top.value === c;
    }),
  );
  t.pass();
});

const token = fc.stringMatching(/^[A-Za-z0-9]{20,32}$/).filter((s) => /\d/.test(s) && /[a-z]/i.test(s));

test('property: an unsubscribe link never outranks a sign-in link', (t) => {
  fc.assert(
    fc.property(fc.constantFrom(...Object.keys(SIGN_IN)), token, token, fc.boolean(), prose, (lang, a, b, unsubFirst, filler) => {
      const signIn = `https://app.example.com/auth/magic?token=${a}`;
      const unsub = `https://app.example.com/email/unsubscribe/${b}`;
      const links = [`<a href="${signIn}">${SIGN_IN[lang]}</a>`, `<a href="${unsub}">${UNSUBSCRIBE[lang]}</a>`];
      const html = `<p>${filler}</p>${(unsubFirst ? links.reverse() : links).join('<br>')}`;
      const ranked = extract(message({ html })).candidates.map((c) => c.value);
      const u = ranked.indexOf(unsub);
      return ranked[0] === signIn && (u < 0 || u > ranked.indexOf(signIn));
    }),
  );
  t.pass();
});
