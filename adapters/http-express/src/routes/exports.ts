import type { Ephemail } from '@ephemail/core';
import { CreateExportBody } from '@ephemail/core';
import type { Route } from './route.js';
import { route } from './route.js';

const tag = 'Exports';

/** Bulk exports of the project's identities, events or extractions; the download is exports/download.ts's. */
export const exportRoutes = (app: Ephemail): Route[] => [
  route<CreateExportBody>({
    method: 'post', path: '/v1/exports', tag, scopes: ['exports:write'], status: 201, body: CreateExportBody, response: 'Export',
    summary: "Queue an export of the project's identities, events or extractions (JSON or CSV) over at most 90 days.",
    handle: ({ principal, body }) => app.exports.create(principal, body),
  }),
  route({
    method: 'get', path: '/v1/exports/:export_id', tag, scopes: ['exports:read'], status: 200, response: 'Export',
    summary: 'An export in its current status: progress while processing; a signed download link (1 h) when ready; the reason when failed.',
    handle: ({ principal, params }) => app.exports.get(principal, params.export_id!),
  }),
];
