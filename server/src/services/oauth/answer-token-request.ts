/** POST /oauth/token: the two grants Purser issues tokens for; no implicit, password or client-credentials grant. */
import { OAuthError, OAuthErrorCode, type OAuthTokens } from '@modelcontextprotocol/server';
import { exchangeAuthorizationCode } from './exchange-authorization-code';
import { refreshAccessToken } from './refresh-access-token';
import { requiredParam, type FormParams, type TokenDeps } from './token-form';

export async function answerTokenRequest(deps: TokenDeps, form: FormParams, now = new Date()): Promise<OAuthTokens> {
  const grantType = requiredParam(form, 'grant_type');
  if (grantType === 'authorization_code') return exchangeAuthorizationCode(deps, form, now);
  if (grantType === 'refresh_token') return refreshAccessToken(deps, form, now);
  throw new OAuthError(OAuthErrorCode.UnsupportedGrantType, 'grant_type must be authorization_code or refresh_token');
}
