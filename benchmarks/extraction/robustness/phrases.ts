/**
 * Short phrases the transformations write into a mail, in the languages most of the corpus is in;
 * other languages get English, as mail from a half-translated product does. `{site}` is the
 * sender's name.
 */

export type Purpose = 'sign_in' | 'verify_email' | 'password_reset' | 'invite' | 'other';
export type Topic = Purpose | 'otp';

export const LANGS = ['en', 'de', 'fr', 'es', 'pt', 'it', 'nl', 'pl', 'ru', 'uk', 'cs', 'sv', 'tr', 'ja', 'zh', 'zh-Hant', 'ko', 'ar'] as const;
export type Lang = (typeof LANGS)[number];

/** The table language for a corpus tag: `pt-BR` → pt, `zh-TW` → zh-Hant, unknown → en. */
export const langOf = (tag: string): Lang => {
  const t = tag.toLowerCase();
  if (/^zh-(tw|hk|hant|mo)/.test(t)) return 'zh-Hant';
  const base = t.split('-')[0] ?? 'en';
  return (LANGS as readonly string[]).includes(base) ? (base as Lang) : 'en';
};

/** Anchor verbs by the link's purpose, and "click here". */
export const VERBS: Record<Lang, Record<Purpose | 'here', string>> = {
  en: { sign_in: 'Sign in', verify_email: 'Confirm email', password_reset: 'Reset password', invite: 'Accept invitation', other: 'Continue', here: 'Click here' },
  de: { sign_in: 'Anmelden', verify_email: 'E-Mail bestätigen', password_reset: 'Passwort zurücksetzen', invite: 'Einladung annehmen', other: 'Weiter', here: 'Hier klicken' },
  fr: { sign_in: 'Se connecter', verify_email: "Confirmer l'adresse", password_reset: 'Réinitialiser le mot de passe', invite: "Accepter l'invitation", other: 'Continuer', here: 'Cliquez ici' },
  es: { sign_in: 'Iniciar sesión', verify_email: 'Confirmar correo', password_reset: 'Restablecer contraseña', invite: 'Aceptar invitación', other: 'Continuar', here: 'Haz clic aquí' },
  pt: { sign_in: 'Entrar', verify_email: 'Confirmar e-mail', password_reset: 'Redefinir senha', invite: 'Aceitar convite', other: 'Continuar', here: 'Clique aqui' },
  it: { sign_in: 'Accedi', verify_email: 'Conferma email', password_reset: 'Reimposta password', invite: 'Accetta invito', other: 'Continua', here: 'Clicca qui' },
  nl: { sign_in: 'Inloggen', verify_email: 'E-mail bevestigen', password_reset: 'Wachtwoord herstellen', invite: 'Uitnodiging accepteren', other: 'Doorgaan', here: 'Klik hier' },
  pl: { sign_in: 'Zaloguj się', verify_email: 'Potwierdź e-mail', password_reset: 'Zresetuj hasło', invite: 'Przyjmij zaproszenie', other: 'Dalej', here: 'Kliknij tutaj' },
  ru: { sign_in: 'Войти', verify_email: 'Подтвердить адрес', password_reset: 'Сбросить пароль', invite: 'Принять приглашение', other: 'Продолжить', here: 'Нажмите здесь' },
  uk: { sign_in: 'Увійти', verify_email: 'Підтвердити адресу', password_reset: 'Скинути пароль', invite: 'Прийняти запрошення', other: 'Продовжити', here: 'Натисніть тут' },
  cs: { sign_in: 'Přihlásit se', verify_email: 'Potvrdit e-mail', password_reset: 'Obnovit heslo', invite: 'Přijmout pozvánku', other: 'Pokračovat', here: 'Klikněte sem' },
  sv: { sign_in: 'Logga in', verify_email: 'Bekräfta e-post', password_reset: 'Återställ lösenord', invite: 'Acceptera inbjudan', other: 'Fortsätt', here: 'Klicka här' },
  tr: { sign_in: 'Giriş yap', verify_email: 'E-postayı onayla', password_reset: 'Şifreyi sıfırla', invite: 'Daveti kabul et', other: 'Devam et', here: 'Buraya tıklayın' },
  ja: { sign_in: 'ログイン', verify_email: 'メールアドレスを確認', password_reset: 'パスワードを再設定', invite: '招待を承諾', other: '続ける', here: 'こちらをクリック' },
  zh: { sign_in: '登录', verify_email: '确认邮箱', password_reset: '重置密码', invite: '接受邀请', other: '继续', here: '点击这里' },
  'zh-Hant': { sign_in: '登入', verify_email: '確認電子郵件', password_reset: '重設密碼', invite: '接受邀請', other: '繼續', here: '按這裡' },
  ko: { sign_in: '로그인', verify_email: '이메일 확인', password_reset: '비밀번호 재설정', invite: '초대 수락', other: '계속', here: '여기를 클릭' },
  ar: { sign_in: 'تسجيل الدخول', verify_email: 'تأكيد البريد الإلكتروني', password_reset: 'إعادة تعيين كلمة المرور', invite: 'قبول الدعوة', other: 'متابعة', here: 'انقر هنا' },
};

/** What introduces a link with the opposite role, and that link's label. */
export const DENIALS: Record<Lang, { readonly intro: string; readonly cancel: string; readonly report: string; readonly notMe: string }> = {
  en: { intro: "Didn't request this?", cancel: 'Cancel this request', report: 'Report it', notMe: "This wasn't me" },
  de: { intro: 'Nicht von Ihnen angefordert?', cancel: 'Anfrage abbrechen', report: 'Melden', notMe: 'Das war ich nicht' },
  fr: { intro: "Vous n'êtes pas à l'origine de cette demande ?", cancel: 'Annuler la demande', report: 'Signaler', notMe: "Ce n'était pas moi" },
  es: { intro: '¿No lo solicitaste?', cancel: 'Cancelar la solicitud', report: 'Denunciarlo', notMe: 'No fui yo' },
  pt: { intro: 'Não foi você que pediu?', cancel: 'Cancelar o pedido', report: 'Denunciar', notMe: 'Não fui eu' },
  it: { intro: "Non l'hai richiesto tu?", cancel: 'Annulla la richiesta', report: 'Segnalalo', notMe: 'Non sono stato io' },
  nl: { intro: 'Niet aangevraagd?', cancel: 'Verzoek annuleren', report: 'Melden', notMe: 'Dit was ik niet' },
  pl: { intro: 'To nie Ty?', cancel: 'Anuluj prośbę', report: 'Zgłoś to', notMe: 'To nie ja' },
  ru: { intro: 'Вы не запрашивали это?', cancel: 'Отменить запрос', report: 'Сообщить', notMe: 'Это был не я' },
  uk: { intro: 'Ви не надсилали цей запит?', cancel: 'Скасувати запит', report: 'Повідомити', notMe: 'Це був не я' },
  cs: { intro: 'Nežádali jste o to?', cancel: 'Zrušit žádost', report: 'Nahlásit', notMe: 'To jsem nebyl já' },
  sv: { intro: 'Har du inte begärt detta?', cancel: 'Avbryt begäran', report: 'Rapportera', notMe: 'Det var inte jag' },
  tr: { intro: 'Bunu siz istemediniz mi?', cancel: 'İsteği iptal et', report: 'Bildir', notMe: 'Bu ben değildim' },
  ja: { intro: 'お心当たりがない場合', cancel: 'このリクエストを取り消す', report: '報告する', notMe: '私ではありません' },
  zh: { intro: '不是您本人操作？', cancel: '取消此请求', report: '举报', notMe: '这不是我' },
  'zh-Hant': { intro: '不是您本人操作？', cancel: '取消此請求', report: '檢舉', notMe: '這不是我' },
  ko: { intro: '요청하지 않으셨나요?', cancel: '요청 취소', report: '신고하기', notMe: '제가 아닙니다' },
  ar: { intro: 'لم تطلب هذا؟', cancel: 'إلغاء الطلب', report: 'الإبلاغ عنه', notMe: 'لست أنا' },
};

/** Subjects by what the mail is for, and a neutral one that says nothing of it. */
export const SUBJECTS: Record<Lang, Record<Topic | 'neutral', string>> = {
  en: { otp: 'Your verification code', sign_in: 'Sign in to {site}', verify_email: 'Confirm your email address', password_reset: 'Reset your password', invite: "You're invited to {site}", other: 'Action needed for your {site} account', neutral: 'A message from {site}' },
  de: { otp: 'Ihr Bestätigungscode', sign_in: 'Bei {site} anmelden', verify_email: 'Bestätigen Sie Ihre E-Mail-Adresse', password_reset: 'Passwort zurücksetzen', invite: 'Einladung zu {site}', other: 'Aktion für Ihr {site}-Konto erforderlich', neutral: 'Eine Nachricht von {site}' },
  fr: { otp: 'Votre code de vérification', sign_in: 'Connexion à {site}', verify_email: 'Confirmez votre adresse e-mail', password_reset: 'Réinitialisez votre mot de passe', invite: 'Invitation à rejoindre {site}', other: 'Action requise sur votre compte {site}', neutral: 'Un message de {site}' },
  es: { otp: 'Tu código de verificación', sign_in: 'Inicia sesión en {site}', verify_email: 'Confirma tu dirección de correo', password_reset: 'Restablece tu contraseña', invite: 'Te han invitado a {site}', other: 'Acción necesaria en tu cuenta de {site}', neutral: 'Un mensaje de {site}' },
  pt: { otp: 'Seu código de verificação', sign_in: 'Entre no {site}', verify_email: 'Confirme seu endereço de e-mail', password_reset: 'Redefina sua senha', invite: 'Você foi convidado para {site}', other: 'Ação necessária na sua conta {site}', neutral: 'Uma mensagem de {site}' },
  it: { otp: 'Il tuo codice di verifica', sign_in: 'Accedi a {site}', verify_email: 'Conferma il tuo indirizzo email', password_reset: 'Reimposta la password', invite: 'Sei stato invitato su {site}', other: 'Azione richiesta per il tuo account {site}', neutral: 'Un messaggio da {site}' },
  nl: { otp: 'Je verificatiecode', sign_in: 'Inloggen bij {site}', verify_email: 'Bevestig je e-mailadres', password_reset: 'Stel je wachtwoord opnieuw in', invite: 'Je bent uitgenodigd voor {site}', other: 'Actie vereist voor je {site}-account', neutral: 'Een bericht van {site}' },
  pl: { otp: 'Twój kod weryfikacyjny', sign_in: 'Zaloguj się do {site}', verify_email: 'Potwierdź swój adres e-mail', password_reset: 'Zresetuj hasło', invite: 'Zaproszenie do {site}', other: 'Wymagane działanie na koncie {site}', neutral: 'Wiadomość od {site}' },
  ru: { otp: 'Ваш код подтверждения', sign_in: 'Вход в {site}', verify_email: 'Подтвердите адрес электронной почты', password_reset: 'Сброс пароля', invite: 'Приглашение в {site}', other: 'Требуется действие в аккаунте {site}', neutral: 'Сообщение от {site}' },
  uk: { otp: 'Ваш код підтвердження', sign_in: 'Вхід до {site}', verify_email: 'Підтвердьте адресу електронної пошти', password_reset: 'Скидання пароля', invite: 'Запрошення до {site}', other: 'Потрібна дія в обліковому записі {site}', neutral: 'Повідомлення від {site}' },
  cs: { otp: 'Váš ověřovací kód', sign_in: 'Přihlášení do {site}', verify_email: 'Potvrďte svou e-mailovou adresu', password_reset: 'Obnovení hesla', invite: 'Pozvánka do {site}', other: 'U účtu {site} je třeba akce', neutral: 'Zpráva od {site}' },
  sv: { otp: 'Din verifieringskod', sign_in: 'Logga in på {site}', verify_email: 'Bekräfta din e-postadress', password_reset: 'Återställ ditt lösenord', invite: 'Du är inbjuden till {site}', other: 'Åtgärd krävs för ditt {site}-konto', neutral: 'Ett meddelande från {site}' },
  tr: { otp: 'Doğrulama kodunuz', sign_in: '{site} hesabına giriş yapın', verify_email: 'E-posta adresinizi onaylayın', password_reset: 'Şifrenizi sıfırlayın', invite: '{site} için davet edildiniz', other: '{site} hesabınız için işlem gerekiyor', neutral: '{site} tarafından bir mesaj' },
  ja: { otp: '確認コード', sign_in: '{site} にログイン', verify_email: 'メールアドレスの確認', password_reset: 'パスワードの再設定', invite: '{site} への招待', other: '{site} アカウントで操作が必要です', neutral: '{site} からのお知らせ' },
  zh: { otp: '您的验证码', sign_in: '登录 {site}', verify_email: '请确认您的邮箱地址', password_reset: '重置您的密码', invite: '您受邀加入 {site}', other: '您的 {site} 账户需要处理', neutral: '来自 {site} 的消息' },
  'zh-Hant': { otp: '您的驗證碼', sign_in: '登入 {site}', verify_email: '請確認您的電子郵件地址', password_reset: '重設您的密碼', invite: '您受邀加入 {site}', other: '您的 {site} 帳戶需要處理', neutral: '來自 {site} 的訊息' },
  ko: { otp: '인증 코드', sign_in: '{site} 로그인', verify_email: '이메일 주소를 확인해 주세요', password_reset: '비밀번호 재설정', invite: '{site}에 초대되었습니다', other: '{site} 계정에 조치가 필요합니다', neutral: '{site}에서 보낸 메시지' },
  ar: { otp: 'رمز التحقق الخاص بك', sign_in: 'تسجيل الدخول إلى {site}', verify_email: 'أكّد عنوان بريدك الإلكتروني', password_reset: 'إعادة تعيين كلمة المرور', invite: 'تمت دعوتك إلى {site}', other: 'مطلوب إجراء في حساب {site}', neutral: 'رسالة من {site}' },
};

/** A phrase with `{name}` places filled. */
export const fill = (phrase: string, values: Readonly<Record<string, string>>): string => phrase.replace(/\{(\w+)\}/g, (m, k: string) => values[k] ?? m);
