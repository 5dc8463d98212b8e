import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Request metrics of the HTTP API, on a registry the host may share with other adapters. */
export interface HttpMetrics {
  readonly registry: Registry;
  observe(method: string, route: string, status: number, seconds: number): void;
}

export const createHttpMetrics = (registry: Registry = new Registry(), defaults = true): HttpMetrics => {
  if (defaults) collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'ephemail_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'ephemail_http_request_duration_seconds',
    help: 'Time from request to response, by method and route pattern.',
    labelNames: ['method', 'route'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  return {
    registry,
    observe: (method, route, status, seconds) => {
      requests.inc({ method, route, status: String(status) });
      latency.observe({ method, route }, seconds);
    },
  };
};
