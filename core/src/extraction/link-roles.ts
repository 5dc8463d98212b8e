// What the words around a link say it does, in many languages: its anchor text, a button's label,
// the sentence before it. General words of each language (stems where words inflect), no
// product's sentences. Latin, Cyrillic and Greek words match at a word start; words of other
// scripts match anywhere (see lexicon.ts, compileWords). Where a word of one role holds a word of
// the other ("reset" 재설정 holds "settings" 설정), the longer word wins where both start, and
// the shorter one is not read inside it (link-role.ts).
//
// Languages: en de fr es it pt nl sv da nb fi pl cs sk sl hr sr bg ru uk el tr ar he fa hi bn th vi
// id ms ja ko zh-Hans zh-Hant hu ro et lv lt ca eu gl.

/** A link the reader is asked to follow to use a secret: confirm, verify, sign in, reset, accept or join, activate. */
export const POSITIVE_ROLE_WORDS: readonly string[] = [
  // en
  'confirm', 'verify', 'validate', 'activate', 'sign in', 'sign-in', 'log in', 'log-in', 'login', 'signin',
  'reset', 'set a new password', 'choose a new password', 'create a password', 'accept', 'join', 'magic link',
  // de
  'bestätig', 'verifizier', 'aktivier', 'anmelden', 'einloggen', 'zurücksetzen', 'passwort festlegen',
  'annehmen', 'beitreten',
  // fr
  'vérifi', 'valider', 'activer', 'se connecter', 'connexion', 'réinitialis', 'accepter', 'rejoindre',
  // es, gl, ca
  'verific', 'activar', 'iniciar sesión', 'inicia sesión', 'acceder', 'restablec', 'aceptar', 'unirte',
  'únete', 'restablece', 'acepta', 'inicia la sessió', 'accedeix', 'restableix', 'accepta', 'uneix-te',
  'activa', 'confirma',
  // it
  'conferm', 'attiva', 'accedi', 'reimposta', 'accetta', 'unisciti',
  // pt
  'ativar', 'entrar', 'acessar', 'iniciar sessão', 'redefin', 'aceitar', 'participar',
  // nl
  'bevestig', 'verifieer', 'activeer', 'inloggen', 'aanmelden', 'herstel', 'accepteer', 'deelnemen', 'word lid',
  // sv, da, nb
  'bekräfta', 'verifiera', 'aktivera', 'logga in', 'återställ', 'acceptera', 'gå med', 'bekræft',
  'verificer', 'aktivér', 'aktiver', 'log ind', 'nulstil', 'accepter', 'bekreft', 'verifiser', 'logg inn',
  'tilbakestill', 'godta', 'bli med',
  // fi
  'vahvista', 'aktivoi', 'kirjaudu', 'nollaa', 'palauta', 'hyväksy', 'liity',
  // pl, cs, sk, sl, hr, sr (Latin)
  'potwierd', 'zweryfik', 'weryfik', 'aktywuj', 'zaloguj', 'resetuj', 'zresetuj', 'zaakceptuj', 'akceptuj',
  'dołącz', 'potvrď', 'potvrdit', 'potvrz', 'ověř', 'aktivov', 'aktivuj', 'přihlás', 'obnovit', 'přijmout',
  'připoj', 'potvrdiť', 'overiť', 'prihlás', 'prijať', 'pripoj', 'potrdi', 'preveri', 'aktiviraj',
  'ponastavi', 'sprejmi', 'pridruži', 'potvrdi', 'provjeri', 'prijavi se', 'resetiraj', 'prihvati',
  'verifikuj', 'prijavite se',
  // sr, bg, ru, uk (Cyrillic)
  'потврд', 'верификуј', 'активирај', 'пријав', 'ресетуј', 'прихвати', 'придружи', 'потвърд', 'верифиц',
  'активир', 'влез', 'нулир', 'възстанов', 'приеми', 'присъедин', 'подтверд', 'войти', 'вход', 'сброс',
  'сбросить', 'восстанов', 'принять', 'присоедин', 'підтверд', 'верифік', 'активу', 'увійти', 'вхід',
  'скинути', 'відновит', 'прийняти', 'приєдна',
  // el
  'επιβεβαί', 'επιβεβαι', 'επαλήθευ', 'επαληθε', 'ενεργοποί', 'ενεργοποι', 'σύνδεση', 'συνδεθ', 'επαναφορά', 'αποδοχή', 'αποδέχ',
  // tr
  'onayla', 'doğrula', 'etkinleştir', 'aktifleştir', 'giriş yap', 'oturum aç', 'sıfırla', 'kabul et', 'katıl',
  // hu, ro
  'megerősít', 'erősítsd meg', 'erősítse meg', 'ellenőriz', 'aktivál', 'bejelentkez', 'visszaállít',
  'elfogad', 'csatlakoz', 'confirmă', 'verifică', 'activează', 'autentific', 'conectează', 'resetează',
  'acceptă', 'alătur',
  // et, lv, lt
  'kinnita', 'aktiveeri', 'logi sisse', 'lähtesta', 'nõustu', 'liitu', 'apstiprin', 'verificē', 'aktivizē',
  'pieteikties', 'pieslēgties', 'atiestatīt', 'pieņemt', 'pievienoties', 'patvirtin', 'aktyvuo',
  'prisijung', 'atkurti', 'priimti',
  // eu
  'berretsi', 'egiaztatu', 'aktibatu', 'hasi saioa', 'saioa hasi', 'berrezarri', 'onartu',
  // vi, id, ms
  'xác nhận', 'xác minh', 'kích hoạt', 'đăng nhập', 'đặt lại', 'chấp nhận', 'tham gia', 'konfirmasi',
  'verifikasi', 'sahkan', 'aktifkan', 'masuk', 'log masuk', 'atur ulang', 'set semula', 'bergabung',
  'sertai',
  // ar, he, fa
  'تأكيد', 'أكد', 'تحقق', 'تفعيل', 'تسجيل الدخول', 'إعادة تعيين', 'قبول', 'انضم', 'אשר', 'אישור', 'אמת',
  'אימות', 'הפעל', 'התחבר', 'כניסה', 'איפוס', 'הצטרף', 'تأیید', 'تایید', 'فعال‌سازی',
  'فعالسازی', 'ورود', 'بازنشانی', 'پذیرش', 'بپیوندید',
  // hi, bn, th
  'पुष्टि', 'सत्यापित', 'सक्रिय', 'लॉग इन', 'साइन इन', 'रीसेट', 'स्वीकार', 'शामिल', 'নিশ্চিত', 'যাচাই',
  'সক্রিয়', 'লগ ইন', 'সাইন ইন', 'রিসেট', 'গ্রহণ', 'যোগ দিন', 'ยืนยัน', 'เปิดใช้งาน', 'เข้าสู่ระบบ', 'รีเซ็ต',
  'ตั้งรหัสผ่านใหม่', 'ยอมรับ', 'เข้าร่วม',
  // ja, ko, zh
  '確認', '認証', '有効化', 'ログイン', 'サインイン', 'リセット', '再設定', '承認', '参加', '확인', '인증',
  '활성화', '로그인', '재설정', '수락', '참여', '가입', '确认', '验证', '激活', '登录', '重置', '重新设置',
  '接受', '加入', '驗證', '啟用', '登入', '重設', '重新設定',
];

/** A link beside the secret that undoes, refuses or leaves it, or leads away: cancel, not me, report, unsubscribe, view in browser, help, privacy, settings, undo. */
export const NEGATIVE_ROLE_WORDS: readonly string[] = [
  // en
  'cancel', 'not me', 'not you', "wasn't me", 'was not me', "wasn't you", "didn't request", 'did not request',
  'invalidate', 'not meant for you', 'not intended for you',
  "didn't ask", 'report', 'unsubscribe', 'opt out', 'opt-out', 'view in browser', 'view in your browser',
  'view online', 'view as a web page', 'help', 'support', 'contact us', 'faq', 'privacy', 'terms',
  'settings', 'preferences', 'manage notifications', 'undo', 'revert', 'decline', 'reject', 'deny', 'block',
  // de
  'abbrechen', 'stornieren', 'widerrufen', 'ablehnen', 'nicht ich', 'war ich nicht', 'nicht angefordert',
  'melden', 'abmelden', 'abbestellen', 'im browser anzeigen', 'hilfe', 'kontakt', 'datenschutz',
  'einstellungen', 'rückgängig', 'sperren', 'ungültig', 'entwerten', 'nicht für dich bestimmt', 'nicht für sie bestimmt',
  // fr
  'annul', 'pas moi', "ce n'était pas moi", 'pas vous', 'signaler', 'désabonn', 'désinscri',
  'afficher dans le navigateur', 'voir en ligne', 'aide', 'assistance', 'confidentialité', 'paramètres',
  'préférences', 'refuser', 'rejeter', 'bloquer', 'invalider', 'ne vous est pas destiné', "ne t'est pas destiné",
  // es, gl, ca
  'cancelar', 'anular', 'no fui yo', 'no he sido yo', 'no eras tú', 'denunciar', 'reportar', 'darse de baja',
  'darte de baja', 'cancelar suscripción', 'ver en el navegador', 'ayuda', 'soporte', 'privacidad',
  'configuración', 'ajustes', 'preferencias', 'deshacer', 'rechazar', 'bloquear', 'invalidar', 'non fun eu', 'darse de baixa',
  'ver no navegador', 'axuda', 'privacidade', 'desfacer', 'rexeitar', 'cancel·la', 'no he estat jo',
  'donar-se de baixa', "dona't de baixa", 'veure al navegador', 'ajuda', 'suport', 'privadesa',
  'configuració', 'preferències', 'desfés', 'rebutja', 'bloqueja',
  // it
  'annulla', 'non sono stato io', 'non ero io', 'segnala', 'disiscriviti', 'annulla iscrizione',
  'visualizza nel browser', 'aiuto', 'supporto', 'impostazioni', 'preferenze', 'rifiuta', 'blocca', 'invalidare',
  // pt
  'não fui eu', 'não foi você', 'cancelar inscrição', 'descadastrar', 'ver no navegador', 'suporte',
  'configurações', 'definições', 'preferências', 'desfazer', 'recusar',
  // nl
  'annuleer', 'annuleren', 'ik was het niet', 'niet ik', 'rapporteer', 'afmelden', 'uitschrijven',
  'bekijk in browser', 'bekijk in je browser', 'ondersteuning', 'instellingen', 'voorkeuren', 'ongedaan',
  'weigeren', 'blokkeer', 'ongeldig', 'niet voor jou bestemd', 'niet voor u bestemd',
  // sv, da, nb
  'avbryt', 'det var inte jag', 'inte jag', 'rapportera', 'anmäl', 'avregistrera', 'avsluta prenumeration',
  'visa i webbläsare', 'hjälp', 'integritet', 'inställningar', 'ångra', 'avvisa', 'neka', 'spärra',
  'annuller', 'afbryd', 'det var ikke mig', 'ikke mig', 'rapportér', 'afmeld', 'frameld', 'vis i browser',
  'hjælp', 'privatliv', 'indstillinger', 'fortryd', 'afvis', 'bloker', 'kanseller', 'det var ikke meg',
  'ikke meg', 'rapporter', 'meld av', 'avslutt abonnement', 'vis i nettleser', 'hjelp', 'støtte', 'personvern',
  'innstillinger', 'angre', 'avslå', 'blokker',
  // fi
  'peruuta', 'en ollut minä', 'se en ollut minä', 'ilmoita', 'lopeta tilaus', 'näytä selaimessa', 'ohje',
  'tuki', 'tietosuoja', 'asetukset', 'kumoa', 'hylkää', 'estä',
  // pl, cs, sk, sl, hr, sr (Latin)
  'anuluj', 'to nie ja', 'nie ja', 'zgłoś', 'wypisz', 'zrezygnuj', 'wyświetl w przeglądarce', 'pomoc',
  'wsparcie', 'prywatnoś', 'ustawienia', 'cofnij', 'odrzuć', 'zablokuj', 'unieważni', 'zrušit', 'nebyl jsem to já',
  'nahlásit', 'odhlásit', 'zobrazit v prohlížeči', 'nápověda', 'podpora', 'soukromí', 'nastavení',
  'vrátit zpět', 'odmítnout', 'zablokovat', 'zrušiť', 'nebol som to ja', 'nahlásiť', 'odhlásiť',
  'zobraziť v prehliadači', 'súkromie', 'nastavenia', 'odmietnuť', 'zablokovať', 'prekliči',
  'to nisem bil jaz', 'odjava', 'odjavi', 'pomoč', 'zasebnost', 'nastavitve', 'razveljavi', 'zavrni',
  'otkaži', 'odustani', 'to nisam bio ja', 'nisam bio ja', 'pomoć', 'podrška', 'privatnost', 'postavke',
  'poništi', 'odbij', 'blokiraj', 'podešavanja',
  // sr, bg, ru, uk (Cyrillic)
  'откажи', 'нисам то био ја', 'нисам био ја', 'одјави', 'одјава', 'помоћ', 'подршка', 'приватност',
  'подешавања', 'поништи', 'одбиј', 'блокирај', 'отказ', 'не бях аз', 'докладвай', 'отписване', 'отпиши',
  'помощ', 'поддръжка', 'поверителност', 'настройки', 'отмени', 'отхвърли', 'блокирай', 'отмен',
  'это был не я', 'это не я', 'не я', 'сообщить', 'пожаловаться', 'отписаться', 'отписк',
  'открыть в браузере', 'помощь', 'поддержк', 'конфиденциальн', 'настройк', 'отклонить', 'заблокир', 'аннулир',
  'скасу', 'це був не я', 'це не я', 'повідомити', 'поскаржитися', 'відписатися', 'відкрити в браузері',
  'допомог', 'підтримк', 'конфіденційн', 'налаштуван', 'відхилити', 'заблок',
  // el
  'ακύρωση', 'ακυρώ', 'δεν ήμουν εγώ', 'όχι εγώ', 'αναφορά', 'απεγγραφ', 'κατάργηση εγγραφής', 'βοήθεια',
  'υποστήριξη', 'απόρρητο', 'ρυθμίσεις', 'αναίρεση', 'απόρριψη', 'αποκλεισ',
  // tr
  'iptal', 'ben değildim', 'bu ben değildim', 'bildir', 'şikayet', 'abonelikten çık', 'tarayıcıda görüntüle',
  'yardım', 'destek', 'gizlilik', 'ayarlar', 'geri al', 'reddet', 'engelle',
  // hu, ro
  'mégse', 'visszavon', 'nem én voltam', 'nem ön volt', 'bejelent', 'leiratkoz', 'megtekintés böngészőben',
  'súgó', 'segítség', 'támogatás', 'adatvédelem', 'beállítások', 'elutasít', 'letilt', 'anulează',
  'nu am fost eu', 'raportează', 'dezabona', 'vezi în browser', 'ajutor', 'asistență', 'confidențialitate',
  'setări', 'respinge', 'blochează',
  // et, lv, lt
  'tühista', 'see polnud mina', 'ei olnud mina', 'teata', 'loobu tellimusest', 'vaata brauseris', 'abi',
  'privaatsus', 'seaded', 'keeldu', 'blokeeri', 'atcelt', 'tas nebiju es', 'nebiju es', 'ziņot',
  'atrakstīties', 'skatīt pārlūkā', 'palīdzība', 'atbalsts', 'privātum', 'iestatījumi', 'noraidīt',
  'bloķēt', 'atšaukti', 'tai buvau ne aš', 'ne aš', 'pranešti', 'atsisakyti', 'peržiūrėti naršyklėje',
  'pagalba', 'palaikymas', 'privatum', 'nustatymai', 'atmesti', 'blokuoti',
  // eu
  'utzi', 'ezeztatu', 'bertan behera', 'ez nintzen ni', 'salatu', 'harpidetza kendu', 'baja eman',
  'ikusi nabigatzailean', 'laguntza', 'pribatutasun', 'ezarpenak', 'desegin', 'baztertu', 'blokeatu',
  // vi, id, ms
  'hủy', 'không phải tôi', 'không phải bạn', 'báo cáo', 'hủy đăng ký', 'xem trong trình duyệt', 'trợ giúp',
  'hỗ trợ', 'quyền riêng tư', 'cài đặt', 'hoàn tác', 'từ chối', 'chặn', 'batalkan', 'batal', 'bukan saya',
  'laporkan', 'berhenti berlangganan', 'lihat di browser', 'bantuan', 'dukungan', 'privasi', 'pengaturan',
  'urungkan', 'tolak', 'blokir', 'nyahlanggan', 'berhenti melanggan', 'lihat dalam pelayar', 'sokongan',
  'tetapan', 'sekat',
  // ar, he, fa
  'إلغاء', 'لم أكن أنا', 'ليس أنا', 'الإبلاغ', 'إبلاغ', 'عرض في المتصفح', 'مساعدة', 'الدعم', 'الخصوصية',
  'الإعدادات', 'تراجع', 'رفض', 'حظر', 'ביטול', 'בטל', 'זה לא הייתי אני', 'לא אני', 'דווח', 'הסר',
  'הצג בדפדפן', 'עזרה', 'תמיכה', 'פרטיות', 'הגדרות', 'דחה', 'חסום', 'لغو', 'من نبودم', 'گزارش',
  'مشاهده در مرورگر', 'راهنما', 'پشتیبانی', 'حریم خصوصی', 'تنظیمات', 'رد کردن', 'مسدود',
  // hi, bn, th
  'रद्द', 'मैं नहीं था', 'रिपोर्ट', 'सदस्यता समाप्त', 'अनसब्सक्राइब', 'ब्राउज़र में देखें', 'सहायता', 'मदद',
  'गोपनीयता', 'सेटिंग्स', 'अस्वीकार', 'ब्लॉक', 'বাতিল', 'আমি ছিলাম না', 'আমি নই', 'রিপোর্ট',
  'আনসাবস্ক্রাইব', 'ব্রাউজারে দেখুন', 'সাহায্য', 'সহায়তা', 'গোপনীয়তা', 'সেটিংস', 'প্রত্যাখ্যান', 'ব্লক',
  'ยกเลิก', 'ไม่ใช่ฉัน', 'ไม่ใช่คุณ', 'รายงาน', 'ดูในเบราว์เซอร์', 'ช่วยเหลือ', 'ฝ่ายสนับสนุน',
  'ความเป็นส่วนตัว', 'การตั้งค่า', 'ปฏิเสธ', 'บล็อก',
  // ja, ko, zh
  'キャンセル', '取り消', '私ではない', '心当たりがない', '身に覚えがない', '報告', '配信停止', '購読解除',
  'ブラウザで表示', 'ヘルプ', 'サポート', 'プライバシー', '設定', '拒否', 'ブロック', '취소', '본인이 아닌',
  '제가 아닙니다', '신고', '수신 거부', '수신거부', '구독 취소', '브라우저에서 보기', '도움말', '고객센터',
  '개인정보', '설정', '거부', '거절', '차단', '取消', '不是我', '非本人', '举报', '退订', '在浏览器中查看',
  '帮助', '隐私', '设置', '拒绝', '屏蔽', '撤销', '檢舉', '回報', '取消訂閱', '在瀏覽器中檢視', '幫助', '支援', '隱私', '拒絕', '封鎖', '撤銷',
];

/**
 * Words that ask the reader to ignore the mail. "If you didn't request this, ignore this email"
 * is a disclaimer, not a link's role: a "not me" word it holds says nothing of the button below
 * it, which an anchor or a later cancel word still can (link-role.ts). "ignor" starts the verb in
 * most Latin-script languages (ignore, ignorez, ignorar, ignora, ignorera, ignoruj, ignorovat).
 */
export const IGNORE_WORDS: readonly string[] = [
  'ignor', 'disregard', 'zignoruj', 'negeer', 'negeren', 'ohita', 'huomiotta', 'bortse från', 'se bort fra',
  'hunsa', 'eira', 'caso omiso', 'ez ikusi', 'figyelmen kívül', 'yok say', 'görmezden gel', 'dikkate almayın',
  'abaikan', 'bỏ qua', 'игнорир', 'проигнорир', 'ігнор', 'проігнор', 'занемари', 'αγνοή', 'αγνοε',
  'تجاهل', 'התעלם', 'נא להתעלם', 'نادیده', 'अनदेखा', 'नज़रअंदाज़', 'উপেক্ষা', 'เพิกเฉย', 'ไม่ต้องสนใจ',
  '無視', '破棄', '무시', '忽略', '无视',
];

/**
 * Words of undoing as URLs spell them (ASCII, words joined by `-`, `_` or `/`), in the corpora's
 * languages: a path that names one leads away from the secret's use (`/registration/verwerfen/…`,
 * `/email/annuleren/…`). Read in the path only: in a sentence most are the words of a
 * disclaimer ("discard this mail"), and the role lexicon above reads sentences.
 */
export const UNDO_PATH_WORDS: readonly string[] = [
  'cancel', 'invalidat', 'discard', 'decline', 'reject', 'deny', 'undo', 'revert', 'abort', 'revoke', 'dismiss',
  'abbrechen', 'abbruch', 'stornier', 'widerruf', 'ablehnen', 'verwerfen', 'ungueltig', 'annul', 'refuser',
  'rejeter', 'cancelar', 'anular', 'rechazar', 'descartar', 'invalidar', 'recusar', 'rifiut', 'scarta',
  'annuleer', 'weiger', 'intrekken', 'avbryt', 'avvisa', 'afvis', 'fortryd', 'avsla', 'peruuta', 'hylkaa',
  'anuluj', 'odrzuc', 'zrusit', 'zrusenie', 'odmitnout', 'iptal', 'reddet', 'megse', 'visszavon', 'anuleaza',
  'respinge', 'otmen', 'otklon',
];
