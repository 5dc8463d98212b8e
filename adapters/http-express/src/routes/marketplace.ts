import type { Ephemail } from '@ephemail/core';
import { DeployTemplateBody, ListTemplatesQuery } from '@ephemail/core';
import type { Route } from './route.js';
import { route } from './route.js';

const ID = '/v1/marketplace/templates/:template_id';
const READ = ['marketplace:read'] as const;
const tag = 'Marketplace';

/** The template catalogue (the same for every tenant) and deployments (into the caller's project). */
export const marketplaceRoutes = (app: Ephemail): Route[] => [
  route<undefined, ListTemplatesQuery>({
    method: 'get', path: '/v1/marketplace/templates', tag, scopes: READ, status: 200, query: ListTemplatesQuery,
    summary: 'List the catalogue by name, optionally of one category and use case (deprecated versions with `include_deprecated=true`).',
    handle: ({ query }) => app.marketplace.list(query),
  }),
  route({
    method: 'get', path: ID, tag, scopes: READ, status: 200,
    summary: "A template with its `extraction_config` (placeholders as written) and `deploy_count`; a deprecated version still answers.",
    handle: ({ params }) => app.marketplace.get(params.template_id!),
  }),
  route<DeployTemplateBody>({
    method: 'post', path: `${ID}/deploy`, tag, scopes: ['marketplace:deploy'], status: 201, body: DeployTemplateBody,
    summary: "Deploy a template: creates an identity whose mail is extracted under the template's rules, within the plan's quota.",
    handle: ({ principal, params, body }) => app.marketplace.deploy(principal, params.template_id!, body),
  }),
];
