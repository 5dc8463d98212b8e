export { loadMcpConfig, McpConfigError, type McpConfig } from './config.js';
export { createEphemailMcpServer, type EphemailMcpServerOptions } from './server.js';
export { startMcpServer, DEFAULT_HTTP_HOST, type McpTransportOptions, type RunningMcpServer } from './start.js';
export { MCP_PATH } from './http.js';
