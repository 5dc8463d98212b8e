import { z } from 'zod';
import { pageQuery } from '../schemas.js';
import { TEMPLATE_CATEGORIES, TEMPLATE_USE_CASES } from './template-file.js';

/** GET /v1/marketplace/templates: filters, paging (default 20, max 100), and deprecated versions on request. */
export const ListTemplatesQuery = pageQuery(20, 100).extend({
  category: z.enum(TEMPLATE_CATEGORIES).optional(),
  use_case: z.enum(TEMPLATE_USE_CASES).optional(),
  include_deprecated: z.enum(['true', 'false']).optional().describe('`true` lists deprecated versions too (default `false`).'),
});
export type ListTemplatesQuery = z.infer<typeof ListTemplatesQuery>;

/** POST /v1/marketplace/templates/{id}/deploy. Values are checked against the template's parameters. */
export const DeployTemplateBody = z.strictObject({
  parameters: z.record(z.string().max(40), z.unknown()).describe("Values for the template's parameters, by name (see the template's `parameters`)."),
});
export type DeployTemplateBody = z.infer<typeof DeployTemplateBody>;
