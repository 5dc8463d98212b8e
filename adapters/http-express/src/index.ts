export { apiRoutes, createHttpApp, type HttpAppOptions } from './app.js';
export { NO_STORE, errorAnswer, sendError, type Answer } from './envelope.js';
export { toHttpError, dependencyUnavailable, type HttpError } from './errors.js';
export { createHttpMetrics, type HttpMetrics } from './metrics.js';
export { createPromMeter } from './prom-meter.js';
export { type HttpLogger, silentLogger } from './middleware/request-context.js';
export { buildOpenApi } from './openapi.js';
export { type Route, type RouteContext, route, isMutation } from './routes/route.js';
export { createCallbackHandler, createInternalApp, type InternalAppOptions } from './internal-app.js';
