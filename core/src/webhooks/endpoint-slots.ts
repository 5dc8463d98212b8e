import type { CoreDeps } from '../deps.js';
import { C } from '../store/collections.js';
import { slotsOf } from '../store/slots.js';

/** The webhook-endpoint quota of an organization (see store/slots.ts). */
const endpointSlots = slotsOf('webhook_endpoints', C.webhooks);

/** Takes a place for `endpointId` in the organization's quota; answers whether it got one. */
export const reserveEndpointSlot = (deps: CoreDeps, orgId: string, endpointId: string, limit: number): Promise<boolean> =>
  endpointSlots.reserve(deps, orgId, endpointId, limit);

/** Gives the place of a removed (or never written) endpoint back. */
export const releaseEndpointSlot = (deps: CoreDeps, orgId: string, endpointId: string): Promise<void> =>
  endpointSlots.release(deps, orgId, endpointId);
