/**
 * Owner sessions (`/auth/v1`): sign up with an invitation code, sign in, refresh. The session's
 * `access_token` authenticates the owner API for an hour; creating owner API keys needs one.
 * These routes sit outside the OpenAPI document, beside the web app's sign-in.
 */
import { OPERATIONS as op } from './operations';
import { Transport, type ConnectionOptions, type RequestOptions } from './transport';
import type { AuthSession, SignInBody, SignUpBody } from './types';

/** `POST /auth/v1/signup`: `{ email, password, data: { full_name, invitation_code } }`. */
export async function signUp(connection: ConnectionOptions, body: SignUpBody, options?: RequestOptions): Promise<AuthSession> {
  return (await new Transport(connection).send<AuthSession>(op.signUp, { body, options })).data;
}

/** `POST /auth/v1/token?grant_type=password`. */
export async function signIn(connection: ConnectionOptions, body: SignInBody, options?: RequestOptions): Promise<AuthSession> {
  return (await new Transport(connection).send<AuthSession>(op.signIn, { query: { grant_type: 'password' }, body, options })).data;
}

/** `POST /auth/v1/token?grant_type=refresh_token`: a new session; the old refresh token is spent. */
export async function refreshSession(connection: ConnectionOptions, refreshToken: string, options?: RequestOptions): Promise<AuthSession> {
  return (await new Transport(connection).send<AuthSession>(op.refreshSession, { query: { grant_type: 'refresh_token' }, body: { refresh_token: refreshToken }, options })).data;
}
