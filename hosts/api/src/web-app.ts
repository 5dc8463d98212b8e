import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { pageSecurityHeaders } from './page-security.js';

/** hosts/api/dist/web, from src/ (tests run from source) and from dist/ (npm start) alike. */
const BUILT = fileURLToPath(new URL('../dist/web', import.meta.url));

// Everything the page needs is in the bundle, so the policy can forbid all else (ADR 0041).
const SECURITY = pageSecurityHeaders();

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Web app not built · ephemail</title></head>
<body><h1>The web app is not built</h1><p>Run <code>npm run build</code> (or <code>npm start</code>, which builds first), then reload.</p>
<p>The API under <code>/v1</code> works without it.</p></body></html>`;

/**
 * The page's icon, a small SVG kept here so it needs no build. Browsers ask for /favicon.ico by
 * themselves; an SVG answers there too (they read the type, not the name).
 */
const FAVICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#0b57d0"/>\
<path d="M7 10h18v12H7z M7 11l9 7 9-7" fill="none" stroke="#fff" stroke-width="2.2" stroke-linejoin="round"/></svg>`;

export interface WebAppOptions {
  /** Where the built bundle is. Default: hosts/api/dist/web. */
  readonly dir?: string;
}

/**
 * The web app at `/` and the team console at `/console` (ADR 0057), from the bundle
 * `scripts/build-web.mjs` writes. The pages are revalidated on every load (`no-cache`, with
 * their ETag); the other files carry a content hash in their names and are kept a year. Both
 * pages and every file get the same security headers. Without a build, the pages answer 503
 * saying how to make one; other paths fall through to the API.
 */
export const webApp = (options: WebAppOptions = {}) => {
  const dir = options.dir ?? BUILT;
  const router = express.Router();
  router.get(['/favicon.ico', '/favicon.svg'], (_req, res) => {
    res.status(200).type('image/svg+xml').set({ ...SECURITY, 'Cache-Control': 'public, max-age=86400' }).send(FAVICON);
  });
  const notBuilt = (res: express.Response) =>
    res.status(503).type('html').set({ 'Cache-Control': 'no-store', 'Retry-After': '60', ...SECURITY }).send(NOT_BUILT);
  router.get(['/', '/index.html'], (_req, res, next) => (existsSync(join(dir, 'index.html')) ? next() : notBuilt(res)));
  // The console's page, with the same headers and revalidation as index.html.
  router.get('/console', (_req, res, next) => {
    if (!existsSync(join(dir, 'console.html'))) return notBuilt(res);
    res.sendFile('console.html', { root: dir, headers: { ...SECURITY, 'Cache-Control': 'no-cache' } }, (error) => error && next(error));
  });
  router.use(
    express.static(dir, {
      index: 'index.html',
      redirect: false,
      fallthrough: true,
      setHeaders: (res, path) => {
        res.set(SECURITY);
        res.set('Cache-Control', path.endsWith('.html') ? 'no-cache' : 'public, max-age=31536000, immutable');
      },
    }),
  );
  return router;
};
