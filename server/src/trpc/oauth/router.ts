import { router } from '../init';
import { approveAuthorizationRequest } from './approve-authorization-request';
import { denyAuthorizationRequest } from './deny-authorization-request';
import { getAuthorizationRequest } from './get-authorization-request';
import { listAgentConnections } from './list-agent-connections';
import { revokeConnection } from './revoke-connection';

/** The owner's side of the OAuth server: the consent page's request and decision, and an agent's connections. */
export const oauthRouter = router({
  authorizationRequest: getAuthorizationRequest,
  approve: approveAuthorizationRequest,
  deny: denyAuthorizationRequest,
  connections: listAgentConnections,
  revokeConnection,
});
