import { SCOPES } from '@ephemail/core';

export { ConfigError, loadConfig } from '../src/config.js';
export const SCOPES_DEFAULT_FOR_TEST = [...SCOPES];
