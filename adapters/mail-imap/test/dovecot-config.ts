import { join } from 'node:path';

/** Where the test server lives and listens. */
export interface DovecotSetup {
  /** `dovecot --version`, e.g. `2.3.19.1`. */
  readonly version: string;
  /** The temp directory holding everything: config, sockets, state, log, users, homes. */
  readonly dir: string;
  readonly port: number;
}

const isAtLeast = (version: string, major: number, minor: number): boolean => {
  const [a = 0, b = 0] = version.split('.').map(Number);
  return a > major || (a === major && b >= minor);
};

// The pieces both syntaxes share. `listen` binds every listener to loopback; imaps is off because
// the tests speak plain IMAP (`ssl = no`); the default login user is kept, since login processes
// refuse to run as root. `first_valid_uid = 1` admits the dovecot system user, whose uid is low.
const common = ({ dir, port }: DovecotSetup): string[] => [
  'protocols = imap',
  'listen = 127.0.0.1',
  `base_dir = ${join(dir, 'run')}`,
  `state_dir = ${join(dir, 'state')}`,
  `log_path = ${join(dir, 'dovecot.log')}`,
  'ssl = no',
  // Failed logins are answered at once, so backoff tests measure our delays, not the server's.
  'auth_failure_delay = 0',
  'first_valid_uid = 1',
  'auth_verbose = yes',
  'service imap-login {',
  '  inet_listener imap {',
  `    port = ${port}`,
  '  }',
  '  inet_listener imaps {',
  '    port = 0',
  '  }',
  '}',
  // Anvil's per-IP auth penalty (2 s, doubling to 15 s) would otherwise slow every retry.
  'service anvil {',
  '  unix_listener anvil-auth-penalty {',
  '    mode = 0',
  '  }',
  '}',
];

/**
 * The configuration text for the installed version. Dovecot 2.3 and 2.4 name cleartext auth,
 * mail storage and the user databases differently. In 2.3, XOAUTH2 against a passwd-file checks
 * the token like a password, which lets the tests exercise the OAuth2 login for real; 2.4 wants an
 * OAuth2 passdb for it, so there the mechanism is left off.
 */
export const dovecotConfig = (setup: DovecotSetup): { readonly text: string; readonly xoauth2: boolean } => {
  const users = join(setup.dir, 'users');
  if (isAtLeast(setup.version, 2, 4)) {
    const lines = [
      'dovecot_config_version = 2.4.0',
      'dovecot_storage_version = 2.4.0',
      ...common(setup),
      'auth_allow_cleartext = yes',
      'auth_mechanisms = plain login',
      'mail_driver = maildir',
      'mail_path = ~/Maildir',
      `passdb passwd-file {\n  passwd_file_path = ${users}\n}`,
      `userdb passwd-file {\n  passwd_file_path = ${users}\n}`,
    ];
    return { text: `${lines.join('\n')}\n`, xoauth2: false };
  }
  const lines = [
    ...common(setup),
    'disable_plaintext_auth = no',
    'auth_mechanisms = plain login xoauth2',
    'mail_location = maildir:~/Maildir',
    `passdb {\n  driver = passwd-file\n  args = ${users}\n}`,
    `userdb {\n  driver = passwd-file\n  args = ${users}\n}`,
  ];
  return { text: `${lines.join('\n')}\n`, xoauth2: true };
};
