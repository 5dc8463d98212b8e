import { startDemoSite } from '../src/demo-site.js';
import { startEphemailHost, type EphemailTarget } from './ephemail-host.js';

/** An ephemail host the caller runs already, named by the `EPHEMAIL_*` variables. */
const externalTarget = (env: NodeJS.ProcessEnv): EphemailTarget | undefined => {
  if (env.EPHEMAIL_URL === undefined || env.EPHEMAIL_URL === '') return undefined;
  const missing = ['EPHEMAIL_API_KEY', 'EPHEMAIL_ORG_ID', 'EPHEMAIL_PROJECT_ID', 'EPHEMAIL_SMTP_PORT'].filter((name) => !env[name]);
  if (missing.length > 0) throw new Error(`EPHEMAIL_URL is set, so set ${missing.join(', ')} too (see README.md)`);
  return {
    url: env.EPHEMAIL_URL,
    smtpHost: env.EPHEMAIL_SMTP_HOST || '127.0.0.1',
    smtpPort: Number(env.EPHEMAIL_SMTP_PORT),
    apiKey: env.EPHEMAIL_API_KEY!,
    orgId: env.EPHEMAIL_ORG_ID!,
    projectId: env.EPHEMAIL_PROJECT_ID!,
  };
};

/**
 * Starts what the specs need: the ephemail host from source (unless EPHEMAIL_URL names one) and
 * the demo site, which mails its codes to the host's MX. The specs read both from the
 * environment, which the workers inherit. Answers the teardown.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const external = externalTarget(process.env);
  const host = external === undefined ? await startEphemailHost() : { target: external, stop: async () => undefined };
  const { target } = host;
  const site = await startDemoSite({ smtpHost: target.smtpHost, smtpPort: target.smtpPort });
  Object.assign(process.env, {
    EPHEMAIL_URL: target.url,
    EPHEMAIL_API_KEY: target.apiKey,
    EPHEMAIL_ORG_ID: target.orgId,
    EPHEMAIL_PROJECT_ID: target.projectId,
    DEMO_SITE_URL: site.url,
  });
  return async () => {
    await site.close();
    await host.stop();
  };
}
