import type { Ephemail } from '@ephemail/core';
import type { Request, Response } from 'express';
import * as E from 'fp-ts/lib/Either.js';
import { sendError } from './envelope.js';
import { toHttpError } from './errors.js';
import { sessionOf } from './pipeline.js';

export interface InboxStreamOptions {
  /** How often the stream reads the event log for what other hosts stored. Default 500 ms. */
  readonly pollMs?: number;
  /** How often a comment line keeps idle connections (and proxies) open. Default 15 s. */
  readonly heartbeatMs?: number;
}

/**
 * `GET /v1/consumer/inbox`: Server-Sent Events of the consumer's mail (`inbound.received`) and
 * extractions (`extraction.completed`, redacted), each with its log position as `id`. The stream
 * follows the store's event log, so mail stored by any host arrives (within `pollMs`; at once
 * when this host stored it); `Last-Event-ID` resumes after that position with nothing lost.
 */
export const consumerInbox =
  (service: Ephemail, options: InboxStreamOptions = {}) =>
  async (req: Request, res: Response): Promise<void> => {
    const session = await service.consumer.authenticate(sessionOf(req).token);
    if (E.isLeft(session)) return sendError(req, res, toHttpError(session.left));
    const { principal } = session.right;
    const resumeAt = Number(req.get('Last-Event-ID'));
    let position = Number.isSafeInteger(resumeAt) && resumeAt >= 0 ? resumeAt : await service.consumer.inbox.head();
    res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', Connection: 'keep-alive', 'X-Accel-Buffering': 'no' });
    res.write('retry: 2000\n\n');
    let closed = false;
    let reading = false;
    let again = false;
    const read = async (): Promise<void> => {
      if (closed) return;
      if (reading) {
        again = true;
        return;
      }
      reading = true;
      try {
        do {
          again = false;
          const next = await service.consumer.inbox.after(principal, position);
          for (const event of next.events) res.write(`id: ${event.position}\nevent: ${event.name}\ndata: ${JSON.stringify(event.data)}\n\n`);
          position = next.position;
          if (next.events.length >= 200) again = true;
        } while (again && !closed);
      } catch {
        // The store failed this once: the next poll tries again from the same position.
      } finally {
        reading = false;
      }
    };
    const poll = setInterval(() => void read(), options.pollMs ?? 500);
    const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), options.heartbeatMs ?? 15_000);
    const unsubscribe = service.consumer.inbox.subscribe((orgId) => {
      if (orgId === principal.orgId) void read();
    });
    req.on('close', () => {
      closed = true;
      clearInterval(poll);
      clearInterval(heartbeat);
      unsubscribe();
    });
    void read();
  };
