import * as E from 'fp-ts/lib/Either.js';
import type * as TE from 'fp-ts/lib/TaskEither.js';
import type { CoreDeps } from '../deps.js';
import type { DomainError } from '../domain/errors.js';
import { templateNotFound } from '../domain/errors.js';
import type { Filter } from '../ports/document-store.js';
import { C } from '../store/collections.js';
import type { Page } from '../store/page.js';
import type { ListTemplatesQuery } from './schemas.js';
import type { TemplateRecord, TemplateSummary, TemplateView } from './template-record.js';
import { templateSummaryOf, templateViewOf } from './template-record.js';

/** A template of the catalogue, deprecated or not: the catalogue is the same for every tenant. */
export const loadTemplate = async (deps: CoreDeps, id: string): Promise<E.Either<DomainError, TemplateRecord>> => {
  const record = (await deps.store.get(C.templates, id)) as TemplateRecord | undefined;
  return record === undefined ? E.left(templateNotFound(id)) : E.right(record);
};

/** The catalogue by name, optionally of one category and use case; deprecated versions only on request. */
export const listTemplates =
  (deps: CoreDeps) =>
  (query: ListTemplatesQuery): TE.TaskEither<DomainError, Page<TemplateSummary>> =>
  async () => {
    const where: Filter = {
      ...(query.include_deprecated === 'true' ? {} : { listed: true }),
      ...(query.category === undefined ? {} : { category: query.category }),
      ...(query.use_case === undefined ? {} : { use_case: query.use_case }),
    };
    const [docs, total] = await Promise.all([
      deps.store.find(C.templates, { where, sort: { field: 'name', direction: 'asc' }, limit: query.limit, offset: query.offset }),
      deps.store.count(C.templates, { where }),
    ]);
    return E.right({ items: docs.map((doc) => templateSummaryOf(doc as unknown as TemplateRecord)), total, limit: query.limit, offset: query.offset });
  };

/** One template with its `extraction_config` and `deploy_count`. */
export const getTemplate =
  (deps: CoreDeps) =>
  (id: string): TE.TaskEither<DomainError, TemplateView> =>
  async () => {
    const found = await loadTemplate(deps, id);
    return E.isLeft(found) ? found : E.right(templateViewOf(found.right));
  };
