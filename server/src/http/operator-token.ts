/**
 * The operator's bearer token (OPERATOR_TOKEN) for endpoints that are not the public's:
 * today the deep health check, which runs a workflow through the worker on every call.
 */
import { AppError } from '@purser/core';
import { hashSecret, sameSecretHash } from '../secrets';
import { bearerToken } from '../services/auth/authenticate-owner';

/**
 * Throws unless `authorization` carries the operator token. With no token configured the
 * endpoint is closed to everyone (403); a missing or wrong token is 401. Both sides are
 * hashed first, so the comparison takes the same time whatever the lengths.
 */
export function requireOperator(operatorToken: string | undefined, authorization: string | undefined): void {
  if (operatorToken === undefined) throw new AppError('FORBIDDEN', 'This endpoint is disabled: the deployment has no OPERATOR_TOKEN');
  const presented = bearerToken(authorization);
  if (presented === null || !sameSecretHash(hashSecret(presented), hashSecret(operatorToken))) {
    throw new AppError('UNAUTHORIZED', 'Send the operator token as Authorization: Bearer <OPERATOR_TOKEN>');
  }
}
