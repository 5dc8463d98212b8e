import { createHmac, timingSafeEqual } from 'node:crypto';

/** Signs `data` with the sandbox key: hex HMAC-SHA256. */
export const sign = (key: Buffer, data: string): string => createHmac('sha256', key).update(data, 'utf8').digest('hex');

export const sameHex = (a: string, b: string): boolean => {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
};

/** A page session carried in the URL itself (any host can serve it): `<base64url json>.<hmac>`. */
export const sealSession = (key: Buffer, session: object): string => {
  const body = Buffer.from(JSON.stringify(session), 'utf8').toString('base64url');
  return `${body}.${sign(key, body)}`;
};

export const openSession = <T>(key: Buffer, token: string): T | undefined => {
  const [body, mac] = token.split('.');
  if (body === undefined || mac === undefined || !/^[0-9a-f]{64}$/.test(mac) || !sameHex(sign(key, body), mac)) return undefined;
  try {
    return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as T;
  } catch {
    return undefined;
  }
};

/** The callback signature header: `t=<unix seconds>,v1=<hmac of "<t>.<raw body>">`. */
export const SIGNATURE_HEADER = 'x-sandbox-signature';

export const signCallback = (key: Buffer, body: string, nowSeconds: number): string => `t=${nowSeconds},v1=${sign(key, `${nowSeconds}.${body}`)}`;
