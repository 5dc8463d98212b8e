import test from 'ava';
import { loadMcpConfig, McpConfigError } from '../src/config.js';

const KEY = 'aid_RN01JnuiahvulRtA_yNsACEwYzso0x0NdrTz55LGHVkw2Sv2Yqca8yDmE';
const FULL = { EPHEMAIL_URL: 'http://127.0.0.1:3000/', EPHEMAIL_API_KEY: KEY, EPHEMAIL_ORG_ID: 'org_dev', EPHEMAIL_PROJECT_ID: 'proj_dev' };

test('mcp config: the four variables give the settings, the URL without its trailing slash', (t) => {
  t.deepEqual(loadMcpConfig(FULL), { url: 'http://127.0.0.1:3000', apiKey: KEY, orgId: 'org_dev', projectId: 'proj_dev', httpToken: undefined });
});

test('mcp config: every missing variable is named with what to set it to; an empty one counts as missing', (t) => {
  const error = t.throws(() => loadMcpConfig({ EPHEMAIL_URL: 'http://127.0.0.1:3000', EPHEMAIL_ORG_ID: '' }), { instanceOf: McpConfigError });
  const lines = error!.message.split('\n').slice(1);
  t.deepEqual(lines.map((line) => line.trim().split(' ')[0]), ['EPHEMAIL_API_KEY', 'EPHEMAIL_ORG_ID', 'EPHEMAIL_PROJECT_ID']);
  t.regex(error!.message, /EPHEMAIL_API_KEY is missing: set it to an API key \(aid_\.\.\.\)/);
});

test('mcp config: a malformed value is named, and no value is ever echoed', (t) => {
  const error = t.throws(() => loadMcpConfig({ ...FULL, EPHEMAIL_URL: KEY, EPHEMAIL_MCP_TOKEN: 'short' }), { instanceOf: McpConfigError });
  t.regex(error!.message, /EPHEMAIL_URL: must be an http:\/\/ or https:\/\/ address/);
  t.regex(error!.message, /EPHEMAIL_MCP_TOKEN: must be at least 16 characters/);
  t.false(error!.message.includes(KEY));
  t.false(error!.message.includes('short'));
});

test('mcp config: a non-http scheme is refused', (t) => {
  t.throws(() => loadMcpConfig({ ...FULL, EPHEMAIL_URL: 'file:///etc/passwd' }), { message: /EPHEMAIL_URL/ });
  t.is(loadMcpConfig({ ...FULL, EPHEMAIL_URL: 'https://api.example.com' }).url, 'https://api.example.com');
});
