import http from 'node:http';
import { signWebhook } from '@ephemail/core';
import type { Receiver } from './receiver-process.js';
import { offer } from './stats.js';

const SECRET = 'whsec_baseline_secret_for_the_bare_loop';

/**
 * The floor: a bare `http.request` loop (keep-alive, same socket limit as the webhook client)
 * posting the same signed payload shape to the same receiver at the same offered rate. Each
 * "event" is stamped when it is fired and posted once per endpoint.
 */
export const runBaseline = async (receiver: Receiver, options: { rate: number; endpoints: number; durationMs: number; maxSockets: number }) => {
  await receiver.setSecrets([SECRET]);
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.maxSockets });
  let errors = 0;
  let non2xx = 0;
  const post = (body: string, endpoint: number) =>
    new Promise<void>((resolve) => {
      const timestamp = Math.floor(Date.now() / 1000);
      const req = http.request(
        { host: '127.0.0.1', port: receiver.port, path: `/hook/${endpoint}`, method: 'POST', agent, headers: { 'content-type': 'application/json', 'x-timestamp': String(timestamp), 'x-signature': signWebhook(SECRET, timestamp, body) } },
        (res) => {
          if (res.statusCode! < 200 || res.statusCode! > 299) non2xx += 1;
          res.resume();
          res.on('end', resolve);
        },
      );
      req.on('error', () => {
        errors += 1;
        resolve();
      });
      req.end(body);
    });
  const inFlight: Promise<void>[] = [];
  const startedAt = Date.now();
  const events = await offer(options.rate, options.durationMs, (i) => {
    const body = JSON.stringify({ id: `evt_baseline_${i}`, type: 'identity.provisioned', timestamp: new Date().toISOString(), data: { n: i } });
    for (let e = 0; e < options.endpoints; e += 1) inFlight.push(post(body, e));
  });
  await Promise.all(inFlight);
  const taken = await receiver.take();
  agent.destroy();
  return { events, expected: events * options.endpoints, startedAt, taken, errors, non2xx };
};
