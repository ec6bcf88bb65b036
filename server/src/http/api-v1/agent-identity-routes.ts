/**
 * An agent's identity towards the sellers it calls, on the owner REST API (docs/identity.md):
 * the key that signs its HTTP requests (rotate, revoke), its directory and card URLs, and the
 * owner's rule of which requests are signed. Same services and contracts as the console.
 */
import { z } from 'zod';
import { agentIdentityView, agentIdSchema, updateRequestSigningInput } from '@purser/core';
import { getAgentIdentity } from '../../services/agents/get-agent-identity';
import { rotateAgentSigningKey } from '../../services/agents/rotate-agent-signing-key';
import { updateRequestSigning } from '../../services/agents/update-request-signing';
import { defineRoute, type ApiRoute } from './define-route';

const agentParams = z.object({ agentId: agentIdSchema });

export const agentIdentityRoutes: ApiRoute[] = [
  defineRoute({
    method: 'GET',
    path: '/agents/:agentId/identity',
    operationId: 'getAgentIdentity',
    summary:
      "How an agent proves who it is to sellers: its request-signing keys (public halves only, with keyid), key directory, " +
      'Signature Agent Card and DID document URLs, which requests are signed, and the last request signed',
    tag: 'Agents',
    scope: 'read',
    params: agentParams,
    response: agentIdentityView,
    handler: ({ deps, owner, params }) => getAgentIdentity(deps, owner.userId, params.agentId),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/agents/:agentId/identity',
    operationId: 'updateAgentIdentity',
    summary: "Which of an agent's outgoing requests Purser signs: always (the default), paid_only or never",
    tag: 'Agents',
    scope: 'agents:admin',
    params: agentParams,
    body: updateRequestSigningInput,
    response: agentIdentityView,
    handler: ({ deps, owner, params, body }) => updateRequestSigning(deps, owner.userId, params.agentId, body),
  }),
  defineRoute({
    method: 'POST',
    path: '/agents/:agentId/identity/rotate-key',
    operationId: 'rotateAgentSigningKey',
    summary:
      "Rotate the key that signs an agent's requests: the new key signs from now on; the old one stays in the directory " +
      'and the DID document for 10 minutes, so requests signed just before still verify',
    tag: 'Agents',
    scope: 'agents:admin',
    params: agentParams,
    response: agentIdentityView,
    handler: ({ deps, owner, params }) => rotateAgentSigningKey(deps, owner.userId, params.agentId, { revoke: false }),
  }),
  defineRoute({
    method: 'POST',
    path: '/agents/:agentId/identity/revoke-key',
    operationId: 'revokeAgentSigningKey',
    summary:
      "Revoke the key that signs an agent's requests (one no longer trusted): it leaves the directory and the DID document at once, " +
      'and a new key signs from now on',
    tag: 'Agents',
    scope: 'agents:admin',
    params: agentParams,
    response: agentIdentityView,
    handler: ({ deps, owner, params }) => rotateAgentSigningKey(deps, owner.userId, params.agentId, { revoke: true }),
  }),
] as ApiRoute[];
