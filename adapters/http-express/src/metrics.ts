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
  // The series of a label set, bound once: prom-client otherwise hashes the label object on every
  // call. Routes are patterns and methods those Node's parser accepts, so the map stays small.
  const series = new Map<string, { readonly count: Counter.Internal; readonly time: Histogram.Internal<string> }>();
  return {
    registry,
    observe: (method, route, status, seconds) => {
      const key = `${method} ${status} ${route}`;
      let bound = series.get(key);
      if (bound === undefined) {
        bound = { count: requests.labels(method, route, String(status)), time: latency.labels(method, route) };
        series.set(key, bound);
      }
      bound.count.inc();
      bound.time.observe(seconds);
    },
  };
};
