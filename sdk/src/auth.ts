/**
 * Owner sessions (`/auth/v1`): sign up with an invitation code, sign in, refresh. The session's
 * `access_token` authenticates the owner API for an hour; creating owner API keys needs one.
 * These routes sit outside the OpenAPI document, beside the web app's sign-in.
 */
import { OPERATIONS as op } from './operations';
import { ApiPromise } from './api-promise';
import type { Operation } from './operations';
import { Transport, type ConnectionOptions, type RequestOptions, type SendInput } from './transport';
import type { AuthSession, SignInBody, SignUpBody } from './types';

/** `POST /auth/v1/signup`: `{ email, password, data: { full_name, invitation_code } }`. */
export function signUp(connection: ConnectionOptions, body: SignUpBody, options?: RequestOptions): ApiPromise<AuthSession> {
  return call(connection, op.signUp, { body, options });
}

/** `POST /auth/v1/token?grant_type=password`. */
export function signIn(connection: ConnectionOptions, body: SignInBody, options?: RequestOptions): ApiPromise<AuthSession> {
  return call(connection, op.signIn, { query: { grant_type: 'password' }, body, options });
}

/** `POST /auth/v1/token?grant_type=refresh_token`: a new session; the old refresh token is spent. */
export function refreshSession(connection: ConnectionOptions, refreshToken: string, options?: RequestOptions): ApiPromise<AuthSession> {
  return call(connection, op.refreshSession, { query: { grant_type: 'refresh_token' }, body: { refresh_token: refreshToken }, options });
}

/** A bad `baseUrl` rejects the promise, as every other failure does, rather than throwing. */
function call(connection: ConnectionOptions, operation: Operation, input: SendInput): ApiPromise<AuthSession> {
  return new ApiPromise((async () => new Transport(connection).sendWithResponse<AuthSession>(operation, input))());
}
