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

export interface WebAppOptions {
  /** Where the built bundle is. Default: hosts/api/dist/web. */
  readonly dir?: string;
}

/**
 * The web app at `/`, from the bundle `scripts/build-web.mjs` writes. index.html is revalidated
 * on every load (`no-cache`, with its ETag); the other files carry a content hash in their names
 * and are kept a year. Without a build, `/` answers 503 saying how to make one; other paths fall
 * through to the API.
 */
export const webApp = (options: WebAppOptions = {}) => {
  const dir = options.dir ?? BUILT;
  const router = express.Router();
  router.get(['/', '/index.html'], (_req, res, next) => {
    if (existsSync(join(dir, 'index.html'))) return next();
    res.status(503).type('html').set({ 'Cache-Control': 'no-store', 'Retry-After': '60', ...SECURITY }).send(NOT_BUILT);
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
