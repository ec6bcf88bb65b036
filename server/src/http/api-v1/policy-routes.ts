/**
 * Owner policies on the owner REST API: owner-wide or per-agent policy documents, enforced or
 * in shadow mode, versioned on change. Same services and contracts as the tRPC procedures.
 */
import { z } from 'zod';
import { createPolicyInput, policyChanges, policyListView, policyView } from '@purser/core';
import { createPolicy } from '../../services/policies/create-policy';
import { deletePolicy } from '../../services/policies/delete-policy';
import { getPolicy } from '../../services/policies/get-policy';
import { listPolicies } from '../../services/policies/list-policies';
import { updatePolicy } from '../../services/policies/update-policy';
import { defineRoute, type ApiRoute } from './define-route';

const policyParams = z.object({ policyId: z.uuid({ error: 'Policy id must be a UUID' }) });
const INCLUDE_SUPERSEDED_MESSAGE = 'includeSuperseded must be true or false';
const listQuery = z.object({
  agentId: z.uuid({ error: 'agentId must be the id of one of your agents' }).optional(),
  includeSuperseded: z
    .enum(['true', 'false'], { error: INCLUDE_SUPERSEDED_MESSAGE })
    .default('false')
    .transform((value) => value === 'true'),
});

export const policyRoutes: ApiRoute[] = [
  defineRoute({
    method: 'GET',
    path: '/policies',
    operationId: 'listPolicies',
    summary: "The owner's policies, owner-wide first; with agentId, those that apply to that agent",
    tag: 'Policies',
    scope: 'read',
    query: listQuery,
    response: policyListView,
    handler: ({ deps, owner, query }) => listPolicies(deps, owner.userId, query),
  }),
  defineRoute({
    method: 'POST',
    path: '/policies',
    operationId: 'createPolicy',
    summary: 'Create a policy for every agent or for one (agentId); shadow: evaluated and reported, never enforced',
    tag: 'Policies',
    scope: 'policies:admin',
    status: 201,
    body: createPolicyInput,
    response: policyView,
    handler: ({ deps, owner, body }) => createPolicy(deps, owner.userId, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/policies/:policyId',
    operationId: 'getPolicy',
    summary: 'One policy version',
    tag: 'Policies',
    scope: 'read',
    params: policyParams,
    response: policyView,
    handler: ({ deps, owner, params }) => getPolicy(deps, owner.userId, params.policyId),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/policies/:policyId',
    operationId: 'updatePolicy',
    summary: 'Change a policy: new rules or shadow write a new version (new id); enabled switches the current version on or off',
    tag: 'Policies',
    scope: 'policies:admin',
    params: policyParams,
    body: policyChanges,
    response: policyView,
    handler: ({ deps, owner, params, body }) => updatePolicy(deps, owner.userId, { ...body, policyId: params.policyId }),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/policies/:policyId',
    operationId: 'deletePolicy',
    summary: 'Delete a policy: switched off and superseded, kept for the audit trail',
    tag: 'Policies',
    scope: 'policies:admin',
    params: policyParams,
    response: policyView,
    handler: ({ deps, owner, params }) => deletePolicy(deps, owner.userId, params.policyId),
  }),
] as ApiRoute[];
