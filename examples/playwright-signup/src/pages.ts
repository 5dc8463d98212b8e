/** The demo site's pages: plain HTML forms, labelled, that work without JavaScript. */

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const layout = (title: string, body: string): string => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} – Demo Shop</title>
<style>
  body { font: 1rem/1.5 system-ui, sans-serif; max-width: 28rem; margin: 3rem auto; padding: 0 1rem; color: #111; }
  label { display: block; font-weight: 600; margin-bottom: .25rem; }
  input { font: inherit; padding: .5rem; width: 100%; box-sizing: border-box; border: 1px solid #555; border-radius: 4px; }
  button { font: inherit; margin-top: 1rem; padding: .5rem 1rem; background: #0b57d0; color: #fff; border: 0; border-radius: 4px; }
  :focus-visible { outline: 3px solid #f9ab00; outline-offset: 2px; }
  [role="alert"] { color: #a50e0e; font-weight: 600; }
</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;

const alert = (error: string | undefined): string => (error === undefined ? '' : `<p role="alert" id="error">${escapeHtml(error)}</p>`);

/** The sign-up form: an email address. */
export const signupPage = (error?: string): string =>
  layout(
    'Sign up',
    `<h1>Create your account</h1>
${alert(error)}
<form method="post" action="/signup">
  <label for="email">Email address</label>
  <input id="email" name="email" type="email" autocomplete="email" required${error === undefined ? '' : ' aria-describedby="error" aria-invalid="true"'}>
  <button type="submit">Send me a code</button>
</form>`,
  );

/** Asks for the code mailed to `email`. */
export const verifyPage = (signupId: string, email: string, error?: string): string =>
  layout(
    'Check your email',
    `<h1>Check your email</h1>
<p>We sent a 6-digit code to <strong>${escapeHtml(email)}</strong>.</p>
${alert(error)}
<form method="post" action="/verify">
  <input type="hidden" name="signup" value="${escapeHtml(signupId)}">
  <label for="code">6-digit code</label>
  <input id="code" name="code" inputmode="numeric" pattern="[0-9]{6}" maxlength="6" autocomplete="one-time-code" required${error === undefined ? '' : ' aria-describedby="error" aria-invalid="true"'}>
  <button type="submit">Verify</button>
</form>`,
  );

/** The end of a sign-up. */
export const welcomePage = (email: string): string =>
  layout('Welcome', `<h1>Welcome!</h1>\n<p>Your account <strong>${escapeHtml(email)}</strong> is ready.</p>`);

/** A page for a link that leads nowhere (an unknown or finished sign-up). */
export const notFoundPage = (): string =>
  layout('Not found', '<h1>Page not found</h1>\n<p><a href="/">Start a sign-up</a></p>');
