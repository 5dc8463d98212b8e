/**
 * Regenerates `src/generated/openapi.ts` from the host's `/v1/openapi.json`:
 *
 *     npm run generate -w adapters/client
 *
 * The host runs in this process on a loopback port with a memory store and no MX, so nothing
 * leaves the machine. `test/types-drift.test.ts` runs the same steps and fails when the committed
 * file differs from what they produce.
 */
import { writeFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadConfig, startHost } from '@ephemail/host-api';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';

type OpenApiDocument = Parameters<typeof openapiTS>[0] & { paths?: Record<string, Record<string, { parameters?: unknown[] }>> };

/** Where the generated types are committed. */
export const GENERATED_FILE = fileURLToPath(new URL('../src/generated/openapi.ts', import.meta.url));

/** Headers the client sends on every request itself: optional in the generated types, so no call must repeat them. */
const CLIENT_HEADERS = new Set(['x-org-id', 'x-project-id', 'idempotency-key']);

const HEADER = `${COMMENT_HEADER.trimEnd()}
/* Regenerate with \`npm run generate -w adapters/client\` (from the host's /v1/openapi.json). */

`;

/** The OpenAPI document the host serves, read from a host started in this process on 127.0.0.1. */
export const hostOpenApiDocument = async (): Promise<OpenApiDocument> => {
  const host = await startHost(loadConfig({ DATABASE_URL: 'memory:', HOST: '127.0.0.1', PORT: '0', SMTP_ENABLED: 'false', LOG_LEVEL: 'silent' }));
  try {
    const response = await fetch(`${host.url}/v1/openapi.json`);
    if (!response.ok) throw new Error(`GET /v1/openapi.json answered ${response.status}`);
    return (await response.json()) as OpenApiDocument;
  } finally {
    await host.close();
  }
};

/** The document as the client sees it: the headers it sets itself made optional. */
export const clientView = (document: OpenApiDocument): OpenApiDocument => {
  const copy = structuredClone(document);
  for (const operations of Object.values(copy.paths ?? {})) {
    for (const operation of Object.values(operations)) {
      for (const parameter of operation.parameters ?? []) {
        const p = parameter as { in?: string; name?: string; required?: boolean };
        if (p.in === 'header' && CLIENT_HEADERS.has(String(p.name).toLowerCase())) p.required = false;
      }
    }
  }
  return copy;
};

/** The TypeScript source generated from a document. */
export const typesOf = async (document: OpenApiDocument): Promise<string> =>
  `${HEADER}${astToString(await openapiTS(clientView(document), { alphabetize: false }))}`;

/** The types the current host's document generates. */
export const generateTypes = async (): Promise<string> => typesOf(await hostOpenApiDocument());

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const source = await generateTypes();
  await writeFile(GENERATED_FILE, source);
  process.stdout.write(`wrote src/generated/openapi.ts (${source.length} characters)\n`);
}
