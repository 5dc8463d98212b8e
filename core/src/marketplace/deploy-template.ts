import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { Principal } from '../auth/principal.js';
import type { CoreDeps } from '../deps.js';
import type { DomainError } from '../domain/errors.js';
import { invalidParameters, templateDeprecated } from '../domain/errors.js';
import { TTL_HOURS } from '../domain/identity.js';
import { iso } from '../domain/time.js';
import { ExtractionRulesSchema, type ExtractionRules } from '../extraction/rules.js';
import { C } from '../store/collections.js';
import { inboxDomainOf, provisionIdentities } from '../use-cases/provision-identities.js';
import type { Deployment, DeploymentRecord } from './deployment-record.js';
import { deploymentViewOf } from './deployment-record.js';
import { checkParameters, renderConfig, type ParameterValues } from './parameters.js';
import type { DeployTemplateBody } from './schemas.js';
import type { TemplateRecord } from './template-record.js';
import { configView, estimatedDurationOf } from './template-record.js';
import { loadTemplate } from './templates.js';

/** The rules the identity's mail is extracted under, or the issues that make them unsafe. */
const rulesFor = (template: TemplateRecord, values: ParameterValues): E.Either<DomainError, { rules: ExtractionRules; config: ReturnType<typeof configView> }> => {
  const rendered = renderConfig(template.extraction_config, values);
  const { sender_pattern, subject_pattern, extraction_type, code_pattern } = rendered;
  const checked = ExtractionRulesSchema.safeParse({ sender_pattern, subject_pattern, extraction_type, code_pattern });
  // Values are escaped into patterns, so only a value too long for one gets here.
  if (!checked.success) return E.left(invalidParameters(checked.error.issues.map((i) => ({ path: `body.parameters`, message: `they make extraction_config.${i.path.join('.')} unusable: ${i.message}` }))));
  return E.right({ rules: checked.data, config: configView(rendered) });
};

const ttlOf = (values: ParameterValues): number => {
  const asked = values.ttl_hours;
  return typeof asked === 'number' ? Math.min(TTL_HOURS.max, Math.max(TTL_HOURS.min, asked)) : TTL_HOURS.default;
};

/**
 * Deploys a template: checks its version is live and the parameters fit, renders its
 * `extraction_config`, creates the identity (within the plan's quota) with the rules that shape
 * its extraction, records the deployment, and counts it on the template for every host.
 */
export const deployTemplate =
  (deps: CoreDeps) =>
  (principal: Principal, templateId: string, body: DeployTemplateBody): TE.TaskEither<DomainError, Deployment> =>
  async () => {
    const found = await loadTemplate(deps, templateId);
    if (E.isLeft(found)) return found;
    const template = found.right;
    if (template.deprecated !== undefined) return E.left(templateDeprecated(template.id, template.deprecated.since, template.deprecated.reason, template.deprecated.replaced_by ?? null));
    const checked = checkParameters(template, body.parameters);
    if (!checked.ok) return E.left(invalidParameters(checked.issues));
    const shaped = rulesFor(template, checked.values);
    if (E.isLeft(shaped)) return shaped;
    const deploymentId = deps.ids.next('dep');
    const spec = { label: template.name, ttlHours: ttlOf(checked.values), metadata: { template_id: template.id, deployment_id: deploymentId }, extractionRules: shaped.right.rules };
    const created = await provisionIdentities(deps, principal, [spec], { domain: inboxDomainOf(deps) });
    if (E.isLeft(created)) return created;
    const identity = created.right[0]!;
    const record: DeploymentRecord = {
      id: deploymentId,
      org_id: principal.orgId,
      project_id: principal.projectId,
      template_id: template.id,
      template_version: template.template_version,
      identity_id: identity.id,
      identity_email: identity.email,
      identity_expires_at: identity.expires_at,
      parameters: checked.values,
      extraction_config: shaped.right.config,
      estimated_duration_seconds: estimatedDurationOf(template),
      status: 'active',
      created_at: iso(deps.clock.now()),
      finished_at: null,
      duration_seconds: null,
      counted: false,
    };
    await deps.store.insert(C.deployments, record);
    await deps.store.increment(C.templates, template.id, 'deploy_count', 1);
    return E.right(deploymentViewOf(record, identity.status));
  };
