/**
 * The parameters of a form the token and revocation endpoints read (application/x-www-form-
 * urlencoded). A parameter sent twice is refused (RFC 6749 section 3.2), as is a required one
 * that is missing or empty, with invalid_request.
 */
import { OAuthError, OAuthErrorCode } from '@modelcontextprotocol/server';
import type { RevokeDeps } from './revoke-connection';

/** What the grants need: the database, and what a replay's revocation announces with. */
export type TokenDeps = RevokeDeps;

export type FormParams = Record<string, string | string[] | undefined>;

export function optionalParam(form: FormParams, name: string): string | undefined {
  const value = form[name];
  if (Array.isArray(value)) throw new OAuthError(OAuthErrorCode.InvalidRequest, `${name} was sent more than once`);
  return value === '' ? undefined : value;
}

export function requiredParam(form: FormParams, name: string): string {
  const value = optionalParam(form, name);
  if (value === undefined) throw new OAuthError(OAuthErrorCode.InvalidRequest, `${name} is required`);
  return value;
}

export function invalidGrant(message: string): OAuthError {
  return new OAuthError(OAuthErrorCode.InvalidGrant, message);
}
