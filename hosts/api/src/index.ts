export { loadConfig, EnvSchema, ConfigError, type HostConfig } from './config.js';
export { startHost, type RunningHost } from './host.js';
export { composeHost, TOKENS, type HostOverrides } from './container.js';
export { bootstrapCredentials, type BootstrapOutcome } from './bootstrap.js';
export { runCli, type CliIo } from './cli/program.js';
export { openStore } from './store-factory.js';
export { meteredStore } from './metered-store.js';
