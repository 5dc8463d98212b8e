import test from 'ava';
import fc from 'fast-check';
import { extract } from '../../src/index.js';
import { leadOf, roleIn } from '../../src/extraction/link-role.js';
import { NEGATIVE_ROLE_WORDS, POSITIVE_ROLE_WORDS } from '../../src/extraction/link-roles.js';
import { message } from './helpers.js';

// Hand-written sentences that lead to a link, by language: [asks to use the secret, leads away].
const LEADS: Record<string, readonly [string, string]> = {
  en: ['Please confirm your email address by clicking below:', "If this wasn't you, cancel the request here:"],
  de: ['Bitte bestätige deine E-Mail-Adresse:', 'Warst du das nicht? Dann hier abbrechen:'],
  fr: ['Veuillez confirmer votre adresse e-mail :', "Ce n'était pas moi – annuler la demande :"],
  es: ['Haz clic para verificar tu cuenta:', 'Si no fuiste tú, puedes cancelar la solicitud:'],
  it: ['Clicca qui per confermare il tuo indirizzo:', 'Non sono stato io, annulla la richiesta:'],
  pt: ['Clique para confirmar o seu e-mail:', 'Não fui eu: cancelar o pedido'],
  nl: ['Klik hieronder om je e-mailadres te bevestigen:', 'Was jij dit niet? Annuleer het verzoek:'],
  sv: ['Klicka här för att bekräfta din e-postadress:', 'Det var inte jag, avbryt begäran:'],
  da: ['Klik her for at bekræfte din e-mailadresse:', 'Det var ikke mig – annuller anmodningen:'],
  nb: ['Klikk her for å bekrefte e-postadressen din:', 'Det var ikke meg, avbryt forespørselen:'],
  fi: ['Vahvista sähköpostiosoitteesi alla olevasta linkistä:', 'Jos tämä et ollut sinä, peruuta pyyntö:'],
  pl: ['Kliknij, aby potwierdzić swój adres e-mail:', 'To nie ja – anuluj prośbę:'],
  cs: ['Klikněte pro potvrzení své e-mailové adresy:', 'Nebyl jsem to já, zrušit požadavek:'],
  hr: ['Kliknite ovdje da biste potvrdili svoju adresu:', 'Nisam bio ja, otkaži zahtjev:'],
  ru: ['Нажмите, чтобы подтвердить адрес электронной почты:', 'Это были не вы? Отменить запрос:'],
  uk: ['Натисніть, щоб підтвердити адресу:', 'Це був не я, скасувати запит:'],
  bg: ['Натиснете, за да потвърдите имейла си:', 'Не бях аз, откажи заявката:'],
  el: ['Πατήστε για να επιβεβαιώσετε τη διεύθυνσή σας:', 'Δεν ήμουν εγώ, ακύρωση του αιτήματος:'],
  tr: ['E-posta adresinizi doğrulamak için tıklayın:', 'Bu ben değildim, isteği iptal et:'],
  hu: ['Kattints ide az e-mail-címed megerősítéséhez:', 'Nem én voltam, kérés visszavonása:'],
  ro: ['Apasă aici pentru a confirma adresa de e-mail:', 'Nu am fost eu, anulează cererea:'],
  ar: ['انقر هنا لتأكيد بريدك الإلكتروني:', 'لم أكن أنا، إلغاء الطلب:'],
  he: ['לחץ כאן לאישור כתובת הדוא"ל:', 'זה לא הייתי אני, ביטול הבקשה:'],
  fa: ['برای تأیید ایمیل خود کلیک کنید:', 'من نبودم، لغو درخواست:'],
  hi: ['अपना ईमेल पुष्टि करने के लिए क्लिक करें:', 'यह मैं नहीं था, अनुरोध रद्द करें:'],
  th: ['คลิกเพื่อยืนยันอีเมลของคุณ:', 'ไม่ใช่ฉัน ยกเลิกคำขอ:'],
  vi: ['Nhấp vào đây để xác nhận email của bạn:', 'Không phải tôi, hủy yêu cầu:'],
  id: ['Klik di sini untuk verifikasi email Anda:', 'Bukan saya, batalkan permintaan:'],
  ja: ['以下のリンクからメールアドレスを確認してください：', '心当たりがない場合はキャンセルしてください：'],
  ko: ['아래 버튼을 눌러 이메일을 인증하세요:', '본인이 아닌 경우 요청을 취소하세요:'],
  'zh-Hans': ['请点击下方链接验证您的邮箱：', '如果不是我本人操作，请取消：'],
  'zh-Hant': ['請點擊下方連結驗證您的電子郵件：', '如果不是我本人操作，請取消：'],
  lt: ['Spustelėkite, kad patvirtintumėte el. paštą:', 'Tai buvau ne aš, atšaukti užklausą:'],
  ca: ['Feu clic per confirmar la vostra adreça:', 'No he estat jo, cancel·la la sol·licitud:'],
};

test('roleIn: the sentence before a link names its role, in many languages', (t) => {
  for (const [lang, [positive, negative]] of Object.entries(LEADS)) {
    t.is(roleIn(positive), 'positive', `${lang}: ${positive}`);
    t.is(roleIn(negative), 'negative', `${lang}: ${negative}`);
  }
});

test('roleIn: the role word nearest the link decides, and a longer word is not read as the shorter one inside it', (t) => {
  t.is(roleIn('If you did not request this, ignore it. Otherwise confirm here:'), 'positive');
  t.is(roleIn('Confirmed? If it was not you, report it:'), 'negative');
  // 재설정 (reset) holds 설정 (settings); 再設定 holds 設定; bejelentkezés (sign-in) starts with bejelent (report).
  t.is(roleIn('비밀번호 재설정'), 'positive');
  t.is(roleIn('パスワードの再設定'), 'positive');
  t.is(roleIn('Bejelentkezés'), 'positive');
  t.is(roleIn('Thanks for reading.'), undefined);
});

test('link roles: the lexicon is lower case, and no word is in both lists', (t) => {
  const negative = new Set(NEGATIVE_ROLE_WORDS);
  for (const w of [...POSITIVE_ROLE_WORDS, ...NEGATIVE_ROLE_WORDS]) t.is(w, w.toLowerCase(), w);
  t.deepEqual(POSITIVE_ROLE_WORDS.filter((w) => negative.has(w)), []);
});

test('leadOf: the lead is the last sentence before the link on its line, or the line above a link that starts its line', (t) => {
  t.is(leadOf('Hello Ana,\nThanks for signing up. Please confirm your address by clicking '), 'Please confirm your address by clicking');
  t.is(leadOf('Hello Ana,\nIf this was not you, cancel it here:\n'), 'If this was not you, cancel it here:');
  t.is(leadOf('Confirm your address:\n→ '), 'Confirm your address:\n→');
  t.is(leadOf(''), '');
});

const TOKEN = 'Zx81kQ2mNw74PpLr9sTe';

const twoLinks = (lead: readonly [string, string], confirmFirst: boolean): string => {
  const confirm = `<p>${lead[0]} <a href="https://app.example.com/email/c?t=${TOKEN}&a=1">click here</a></p>`;
  const cancel = `<p>${lead[1]} <a href="https://app.example.com/email/c?t=${TOKEN}&a=2">click here</a></p>`;
  return confirmFirst ? confirm + cancel : cancel + confirm;
};

test('extract: of two links sharing one token, the one the sentence before asks to follow wins, in every language', (t) => {
  for (const [lang, lead] of Object.entries(LEADS)) {
    for (const first of [true, false]) {
      const top = extract(message({ subject: 'Email', html: twoLinks(lead, first) })).top;
      t.is(top?.value, `https://app.example.com/email/c?t=${TOKEN}&a=1`, `${lang}, confirm ${first ? 'first' : 'second'}`);
    }
  }
});

const UNSUBSCRIBE = ['Unsubscribe', 'Abmelden', 'Se désabonner', 'Darse de baja', 'Отписаться', '配信停止', '수신 거부', '退订', 'Abonelikten çık'];
const prose = fc.array(fc.stringMatching(/^[a-z]{2,9}$/), { minLength: 3, maxLength: 10 }).map((ws) => `${ws.join(' ')}.`);

test('property: adding an unsubscribe link never changes the winner of a confirm mail', (t) => {
  fc.assert(
    fc.property(fc.constantFrom(...Object.keys(LEADS)), fc.constantFrom(...UNSUBSCRIBE), fc.stringMatching(/^[A-Za-z0-9]{20,32}$/), fc.boolean(), prose, (lang, unsub, token, before, filler) => {
      const confirm = `<p>${filler}</p><p>${LEADS[lang]?.[0]} <a href="https://app.example.com/verify/${TOKEN}">${LEADS[lang]?.[0]}</a></p>`;
      const footer = `<p><a href="https://app.example.com/u/${token}">${unsub}</a></p>`;
      const alone = extract(message({ subject: 'Email', html: confirm })).top?.value;
      const withUnsub = extract(message({ subject: 'Email', html: before ? footer + confirm : confirm + footer })).top?.value;
      return alone === withUnsub;
    }),
    { numRuns: 300 },
  );
  t.pass();
});

test('roleIn: a "not me" sentence that asks to ignore the mail is a disclaimer and names no role, in many languages', (t) => {
  for (const lead of [
    "If you didn't request this, please ignore this email.",
    'Falls du das nicht angefordert hast, ignoriere diese E-Mail.',
    "Si ce n'était pas moi… ignorez simplement ce message.",
    'Если это были не вы, просто проигнорируйте это письмо.',
    '心当たりがない場合は、このメールを無視してください。',
  ]) t.is(roleIn(lead), undefined, lead);
  // A cancel word after the request to ignore still names the link's role.
  t.is(roleIn("If you didn't request this, ignore this email or cancel the request here:"), 'negative');
});

test('extract: a button below a "didn\'t ask for this? ignore it" sentence is still the confirm link, and surely so', (t) => {
  const href = `https://id.example.com/setup/finish?user=4410&code=${TOKEN}`;
  const html = `<p>Hello Ana, your account is waiting. Please use the button below to finish setting it up.</p>
    <p>If you didn't ask for this mail, please ignore it.</p>
    <p><a href="${href}" style="background:#36c;padding:10px">Finish setup</a></p>`;
  const link = extract(message({ subject: 'Your new account', html })).candidates.find((c) => c.type === 'magic_link');
  t.is(link?.value, href);
  t.is(link?.evidence.signals.role_negative, undefined);
  t.true((link?.confidence ?? 0) >= 0.5, String(link?.confidence));
});
