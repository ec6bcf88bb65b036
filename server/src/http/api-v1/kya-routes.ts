/**
 * KYA escalation on the owner REST API: request a higher tier for an agent with evidence, and
 * read the verifications on record. Same services and contracts as the tRPC procedures.
 */
import { z } from 'zod';
import { agentIdSchema, kyaEscalationBody, kyaEscalationResult, listKyaVerificationsResult } from '@purser/core';
import { listKyaVerifications } from '../../services/agents/list-kya-verifications';
import { requestKyaEscalation } from '../../services/agents/request-kya-escalation';
import { defineRoute, type ApiRoute } from './define-route';

const agentParams = z.object({ agentId: agentIdSchema });

export const kyaRoutes: ApiRoute[] = [
  defineRoute({
    method: 'POST',
    path: '/agents/:agentId/kya-escalations',
    operationId: 'requestKyaEscalation',
    summary:
      "Ask to raise an agent's KYA tier with evidence (sandbox verification, sandbox chain only: 409 SANDBOX_ONLY on a real network; " +
      'the registration number or legal name SANDBOX-REJECT is rejected). ' +
      'Verified: the tier rises and the credential is re-issued. Rejected: recorded with its reason, nothing else changes.',
    tag: 'Agents',
    scope: 'agents:admin',
    status: 201,
    params: agentParams,
    body: kyaEscalationBody,
    response: kyaEscalationResult,
    handler: ({ deps, owner, params, body }) => requestKyaEscalation(deps, owner.userId, { ...body, agent_id: params.agentId }),
  }),
  defineRoute({
    method: 'GET',
    path: '/agents/:agentId/kya-verifications',
    operationId: 'listKyaVerifications',
    summary: "An agent's KYA verifications with their evidence and outcome, newest first",
    tag: 'Agents',
    scope: 'read',
    params: agentParams,
    response: listKyaVerificationsResult,
    handler: ({ deps, owner, params }) => listKyaVerifications(deps, owner.userId, params.agentId),
  }),
] as ApiRoute[];
