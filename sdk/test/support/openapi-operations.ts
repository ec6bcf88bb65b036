/**
 * The operations the SDK covers: the owner API and the agent API. The document also lists the
 * sign-in endpoints (the SDK's session calls, checked on their own), the edge functions, the
 * public identity documents, the assistant and the sandbox's paid API, which the SDK does not wrap.
 */
import { AGENT_API_PREFIX } from '@purser/core';
import { documentedOperations, type DocumentedOperation } from '@purser/server/testing';
import { OWNER_API_BASE_PATH } from '../../src/operations';

export { operationAt, type DocumentedOperation } from '@purser/server/testing';

export function sdkSurfaceOperations(document: unknown): DocumentedOperation[] {
  return documentedOperations(document).filter((operation) => operation.path.startsWith(`${OWNER_API_BASE_PATH}/`) || operation.path.startsWith(AGENT_API_PREFIX));
}
