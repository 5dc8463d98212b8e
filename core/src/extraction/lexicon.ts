// Keyword lexicons for the languages the engine supports: en de fr es pt it nl pl tr ru uk ar he
// hi th vi id ja zh ko, and code words of cs sk hu el fi et ro lt lv sl ca ga eu fa bn. Stems are
// used where languages inflect ("подтвер", "doğrula") so one entry covers the forms; scripts
// without spaces (ja, zh, th) match as substrings.

/** Words that introduce a one-time code. */
export const CODE_WORDS = [
  'code', 'codes', 'otp', 'one-time password', 'one time password', 'passcode', 'pin', 'security code',
  'verification number', 'token',
  'bestätigungscode', 'sicherheitscode', 'einmalpasswort', 'einmalcode', 'anmeldecode', 'zugangscode',
  'prüfcode', 'verifizierungscode', 'kennung',
  'mot de passe à usage unique', 'código', 'codigo', 'clave', 'contraseña de un solo uso', 'senha única',
  'codice', 'verificatiecode', 'inlogcode', 'kod', 'kodu', 'kodunuz', 'kodun', 'tek kullanımlık şifre',
  'код', 'кодом', 'одноразовый пароль', 'одноразов',
  'رمز', 'الرمز', 'كود', 'الكود', 'קוד', 'סיסמה חד-פעמית',
  'कोड', 'ओटीपी', 'पासकोड', 'รหัส', 'mã', 'mã xác minh', 'mã xác thực', 'kode', 'kata sandi sekali pakai',
  'コード', 'ワンタイムパスワード', 'パスコード', '認証番号', '確認番号', '暗証番号',
  '验证码', '驗證碼', '校验码', '代码', '代碼', '动态码', '一次性密码', '一次性密碼', '确认码', '確認碼',
  '코드', '인증번호', '인증 번호', '확인 번호', '일회용 비밀번호', '보안 코드',
  // cs sk hu, el, fi, et, ro, lt, lv, sl, ca, ga, eu, fa, bn: "code" in more languages.
  'kód', 'kódot', 'kódja', 'κωδικός', 'κωδικό', 'koodi', 'kood', 'cod', 'codul', 'kodas', 'kods', 'koda',
  'codi', 'cód', 'kodea', 'کد', 'কোড',
  // hr, sr (with the circumflex their typography uses), sw, sc, oc, ta.
  'kôd', 'кôд', 'msimbo', 'còdighe', 'codighe', 'còdi', 'குறியீட',
];

/**
 * Endings of compound nouns that name a code (German "Zurücksetzungscode", Turkish "doğrulamakodu",
 * Finnish "vahvistuskoodi", Estonian "kinnituskood", Hungarian "ellenőrzőkód").
 */
const CODE_SUFFIXES = ['code', 'codes', 'kode', 'kod', 'kodu', 'код', 'koodi', 'kood', 'kód'];

const LETTER = 'A-Za-z\\u00c0-\\u024f\\u0400-\\u04ff';

/**
 * The compound as a pattern: a whole word of at least three letters before a code suffix. It
 * starts where its word starts: tried from every letter, the greedy run backtracked over the
 * rest of the word each time, which made it the costliest part of the lexicon scan.
 */
export const CODE_COMPOUND = `(?<![${LETTER}])[${LETTER}]{3,}(?:${CODE_SUFFIXES.join('|')})(?![${LETTER}])`;

/** A code suffix that ends a word: every compound hit ends with one. */
export const CODE_SUFFIX_AT_END = `(?:${CODE_SUFFIXES.join('|')})(?![${LETTER}])`;

/** One letter of the compound's class. */
export const CODE_LETTER = `[${LETTER}]`;

/** Generic call-to-action words of buttons that do not say what the link is for. */
export const ACTION_WORDS = [
  'complete', 'finish', 'continue', 'get started', 'set up', 'click here', 'open', 'proceed', 'go to',
  'abschließen', 'abschliessen', 'fortfahren', 'weiter', 'hier klicken', 'terminer', 'continuer',
  'cliquez', 'completar', 'continuar', 'haz clic', 'concluir', 'clique', 'completa', 'continua',
  'clicca', 'voltooien', 'doorgaan', 'klik', 'dokończ', 'kontynuuj', 'kliknij', 'tamamla', 'devam',
  'tıkla', 'заверш', 'продолж', 'нажмите', 'продовж', 'натисніть', 'إكمال', 'متابعة', 'انقر', 'השלם',
  'המשך', 'לחץ', 'पूरा करें', 'जारी रखें', 'क्लिक', 'ดำเนินการต่อ', 'คลิก', 'hoàn tất', 'tiếp tục',
  'nhấp', 'selesaikan', 'lanjutkan', 'klik', '完了', '続行', 'クリック', '完成', '继续', '繼續', '点击',
  '點擊', '완료', '계속', '클릭',
];

/** Words that mark a nearby number as something other than a secret. */
export const DECOY_WORDS = [
  'order', 'invoice', 'ref', 'reference', 'ticket', 'suite', 'apt', 'phone', 'tel', 'fax', 'mobile',
  'account id', 'account number', 'customer', 'member', 'transaction', 'tracking', 'booking',
  'reservation', 'case', 'serial', 'version', 'build', 'receipt', 'po box', 'zip', 'postal', 'postcode',
  'amount', 'total', 'price', 'balance', 'item', 'sku', 'user id', 'street', 'floor', 'no.',
  'bestellung', 'rechnung', 'kundennummer', 'auftrag', 'telefon', 'commande', 'facture', 'téléphone',
  'pedido', 'factura', 'teléfono', 'fatura', 'telefone', 'ordine', 'fattura', 'telefono', 'bestelling',
  'zamówienie', 'faktura', 'sipariş', 'заказ', 'счёт', 'счет', 'телефон', 'замовлення', 'طلب', 'فاتورة',
  'هاتف', 'הזמנה מס', 'חשבונית', 'ऑर्डर', 'คำสั่งซื้อ', 'đơn hàng', 'pesanan', '注文', '請求書', '电话',
  '订单', '訂單', '발주', '주문', '전화',
];

/**
 * Words of commerce that name what a nearby code is for when it is not a sign-in ("promo code",
 * "license key", "gift card"). Tested only in the few characters before a code (codes.ts), not
 * scanned over whole segments with DECOY_WORDS: their common first letters slowed that scan.
 */
export const COMMERCE_WORDS = ['promo', 'coupon', 'voucher', 'discount', 'gift', 'licen', 'lizenz', 'лиценз', '许可证'];

/** Units that make a preceding number a duration ("expires in 10 minutes"). */
export const TIME_WORDS = [
  'sec', 'second', 'min', 'minute', 'hour', 'hr', 'day', 'week', 'month', 'year',
  'sekunde', 'minute', 'stunde', 'tag', 'heure', 'jour', 'segundo', 'minuto', 'hora', 'día', 'dia',
  'ora', 'ore', 'giorn', 'minuut', 'minuten', 'uur', 'dag', 'minut', 'godzin', 'dni', 'dakika', 'saat',
  'gün', 'секунд', 'минут', 'час', 'дн', 'хвилин', 'годин', 'ثاني', 'دقيق', 'دقائق', 'ساع', 'يوم', 'أيام',
  'שניות', 'דקות', 'שעות', 'ימים', 'सेकंड', 'मिनट', 'घंटे', 'दिन', 'วินาที', 'นาที', 'ชั่วโมง', 'วัน',
  'giây', 'phút', 'giờ', 'ngày', 'detik', 'menit', 'jam', 'hari', '秒', '分', '時間', '日', '小时', '小時',
  '天', '초', '분', '시간', '일',
];

/** Words of link text or context that say what a link is for, by link kind. */
export const KIND_WORDS = {
  password_reset: [
    'reset', 'recover', 'forgot', 'new password', 'change password', 'choose a new', 'credentials',
    'zurücksetzen', 'passwort ändern', 'wiederherstell', 'réinitialis', 'récupér', 'restablecer',
    'recuperar', 'redefinir', 'reimpost', 'recuper', 'herstel', 'resetuj', 'zresetuj', 'odzysk',
    'sıfırla', 'сброс', 'сбросить', 'восстанов', 'скину', 'відновл', 'إعادة تعيين', 'إعادة ضبط',
    'استعادة', 'تغيير كلمة', 'איפוס', 'שחזור', 'रीसेट', 'รีเซ็ต', 'đặt lại', 'khôi phục', 'atur ulang',
    'reset kata sandi', 'リセット', '再設定', '重置', '重設', '找回', '재설정',
  ],
  verify_email: [
    'verify', 'verification', 'confirm', 'activate', 'activation', 'validate', 'bestätig', 'verifizier',
    'aktivier', 'confirmer', 'vérifi', 'activer', 'confirmar', 'verificar', 'activar', 'ativar',
    'conferm', 'verific', 'attiva', 'bevestig', 'verifieer', 'activeer', 'potwierd', 'zweryfik',
    'aktywuj', 'doğrula', 'onayla', 'etkinleştir', 'подтверд', 'подтвер', 'актив', 'підтверд',
    'تأكيد', 'توثيق', 'تحقق', 'تفعيل', 'אימות', 'אמת', 'אשר', 'सत्यापित', 'पुष्टि', 'ยืนยัน',
    'xác minh', 'xác nhận', 'kích hoạt', 'verifikasi', 'konfirmasi', 'aktifkan', '確認', '認証',
    '验证', '驗證', '确认', '激活', '인증', '확인',
  ],
  invite: [
    'invite', 'invitation', 'invited', 'join', 'accept', 'einladung', 'eingeladen', 'beitreten',
    'annehmen', 'rejoindre', 'accepter', 'invitación', 'invitado', 'unirte', 'unirse', 'aceptar',
    'convite', 'convidado', 'aceitar', 'invito', 'invitato', 'unisciti', 'accetta', 'uitnodiging',
    'uitgenodigd', 'zaproszen', 'dołącz', 'davet', 'katıl', 'приглаш', 'присоедин', 'запрош',
    'دعوة', 'انضم', 'قبول', 'הזמנה', 'הצטרף', 'आमंत्रण', 'आमंत्रित', 'คำเชิญ', 'เชิญ', 'lời mời',
    'tham gia', 'undangan', 'bergabung', '招待', '参加', '邀请', '邀請', '加入', '초대', '참여',
  ],
  sign_in: [
    'sign in', 'sign-in', 'log in', 'log-in', 'login', 'signin', 'magic link', 'continue logging',
    'anmelden', 'einloggen', 'connexion', 'se connecter', 'connecter', 'iniciar sesión', 'acceder',
    'entrar', 'acessar', 'accedi', 'accesso', 'inloggen', 'aanmelden', 'zaloguj', 'logowan', 'giriş',
    'войти', 'вход', 'увійти', 'вхід', 'تسجيل الدخول', 'الدخول', 'התחבר', 'כניסה', 'लॉग इन',
    'साइन इन', 'เข้าสู่ระบบ', 'đăng nhập', 'masuk', 'ログイン', 'サインイン', '登录', '登入', '登錄', '로그인',
  ],
} as const;

/** Words of link text or URL that mark a link as not a secret (footers, settings, revocation). */
export const NEGATIVE_LINK_WORDS = [
  'unsubscribe', 'opt out', 'opt-out', 'manage notifications', 'notification settings', 'preferences',
  'privacy', 'terms', 'help', 'support', 'faq', 'contact', 'about us', 'blog', 'docs', 'revoke',
  'report', 'deny', 'not you', "wasn't me", 'view in browser', 'view online', 'download the app',
  'abmelden', 'abbestellen', 'datenschutz', 'hilfe', 'désabonner', 'désinscri', 'confidentialité',
  'aide', 'darse de baja', 'cancelar suscripción', 'privacidad', 'ayuda', 'cancelar inscrição',
  'privacidade', 'ajuda', 'disiscriviti', 'annulla iscrizione', 'aiuto', 'afmelden', 'uitschrijven',
  'wypisz', 'rezygnuj', 'pomoc', 'abonelikten', 'gizlilik', 'yardım', 'отписаться', 'отписк',
  'конфиденциальн', 'помощь', 'відписатися', 'إلغاء الاشتراك', 'الخصوصية', 'مساعدة', 'הסר',
  'ביטול מנוי', 'פרטיות', 'सदस्यता समाप्त', 'गोपनीयता', 'ยกเลิกการสมัคร', 'hủy đăng ký',
  'berhenti berlangganan', '配信停止', '購読解除', 'プライバシー', '退订', '取消订阅', '隐私', '帮助',
  '수신 거부', '수신거부', '개인정보',
];

const LETTERLIKE = /^[\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}]/u;
// Letters and digits of the spaced scripts, spelled out so the patterns need no 'u' flag: Unicode
// mode with property escapes made every scan about a third slower.
const WORD_CHAR = 'A-Za-z0-9\\u00c0-\\u024f\\u0370-\\u03ff\\u0400-\\u04ff';

/** The two halves of a word list's pattern: words bound to a word start, and words of scripts without spaces. */
export interface WordSources {
  readonly bounded: string | undefined;
  readonly free: string | undefined;
}

// Where a word has a space, any run of blanks (a no-break space included) may stand.
const BLANKS = '[\\s\\u00a0]+';

interface WordTree {
  /** A word ends here. */
  end: boolean;
  /** The words that go on, by their next piece: one escaped character, or BLANKS for a space. */
  readonly next: Map<string, WordTree>;
}

/**
 * The words as one pattern that matches at a position exactly what the alternation of the words,
 * longest first, matches there: the longest word that matches. Words that both match at one
 * position are one the beginning of the other (the lexicon is lower case, so no two different
 * pieces match the same character), so that alternation always picks the longer. Here the words
 * share their beginnings as a prefix tree, and at each branch the words that go on are tried
 * before the one that ends, which picks the longer too. A long alternation is tried word by word
 * at every position it may start; the tree is tried a character at a time, and kept the word-list
 * scans 15-30% faster (a test compares both on random text).
 */
const treeSource = (words: readonly string[], afterFirst = ''): string => {
  const root: WordTree = { end: false, next: new Map() };
  for (const word of words) {
    let node = root;
    for (const c of word) {
      const piece = c === ' ' ? BLANKS : c.replace(/[.*+?^${}()|[\]\\]/, '\\$&');
      let child = node.next.get(piece);
      if (child === undefined) {
        child = { end: false, next: new Map() };
        node.next.set(piece, child);
      }
      node = child;
    }
    node.end = true;
  }
  const source = (node: WordTree, guard = ''): string => {
    const branches = [...node.next].map(([piece, child]) => piece + guard + source(child));
    if (branches.length === 0) return '';
    if (branches.length === 1 && !node.end) return branches[0] ?? '';
    return `(?:${branches.join('|')}${node.end ? '|' : ''})`;
  };
  return source(root, afterFirst);
};

/**
 * The word-start test of a bounded word, placed after its first character: the character before
 * that one is not a letter or digit. Placed before the first character, as `(?<![…])`, the same
 * test kept irregexp from looking at the first character first; every position paid for the
 * lookbehind, and the scans of the word lists were two to three times slower.
 */
const WORD_START_BEHIND = `(?<![${WORD_CHAR}][\\s\\S])`;

/**
 * The sources of a word list's pattern (see treeSource). Words that begin with a Latin, Cyrillic
 * or Greek letter must start at a word boundary (see WORD_START_BEHIND); other scripts match
 * anywhere, since they do not separate words with spaces or attach particles to them.
 */
export const wordSources = (words: readonly string[]): WordSources => {
  const unique = [...new Set(words)];
  const bounded = unique.filter((w) => LETTERLIKE.test(w));
  const free = unique.filter((w) => !LETTERLIKE.test(w));
  return {
    bounded: bounded.length > 0 ? treeSource(bounded, WORD_START_BEHIND) : undefined,
    free: free.length > 0 ? treeSource(free) : undefined,
  };
};

/** Compiles a word list into one case-insensitive pattern: the bounded words, then the free ones (see wordSources). */
export const compileWords = (words: readonly string[], flags = 'gi'): RegExp => {
  const { bounded, free } = wordSources(words);
  return new RegExp([bounded, free].filter((p) => p !== undefined).join('|'), flags);
};
