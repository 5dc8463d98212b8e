import express from 'express';
import { pageSecurityHeaders } from './page-security.js';

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign in · ephemail</title>
<meta name="viewport" content="width=device-width,initial-scale=1">
<style>body{font:16px system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}button{font:inherit;padding:.6rem 1.4rem}</style></head>
<body><h1>Sign in to ephemail</h1>
<p>Press the button to finish signing in. (Opening this page alone signs no one in, so a mail scanner that follows the link uses nothing up.)</p>
<button id="go" type="button">Sign in</button><p id="outcome" role="status" aria-live="polite"></p>
<p id="next" hidden><a id="home" href="/">Go to your inboxes</a></p>
<script>
document.getElementById('go').addEventListener('click', async () => {
  const token = new URLSearchParams(location.search).get('token') || '';
  const out = document.getElementById('outcome');
  const res = await fetch('/v1/consumer/verify', { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) });
  const body = await res.json().catch(() => ({}));
  out.textContent = res.ok ? 'You are signed in.' : (body.error && body.error.message) || 'The link did not work.';
  out.dataset.status = String(res.status);
  // Signed in: offer the web app, focused so Enter goes there.
  if (res.ok) { document.getElementById('next').hidden = false; document.getElementById('home').focus(); }
});
</script></body></html>`;

/**
 * The page an emailed sign-in link opens. Its GET consumes nothing (mail scanners prefetch
 * links); its button POSTs the token to /v1/consumer/verify, which sets the session cookie.
 */
export const consumerPages = () => {
  const router = express.Router();
  router.get('/consumer/verify', (_req, res) => {
    res
      .status(200)
      .type('html')
      .set({ 'Cache-Control': 'no-store', ...pageSecurityHeaders({ inlineScript: true, inlineStyle: true }) })
      .send(PAGE);
  });
  return router;
};
