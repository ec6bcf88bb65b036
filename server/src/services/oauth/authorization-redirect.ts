/**
 * The redirect that ends an authorization request at the client (RFC 6749 section 4.1.2): the
 * registered redirect URI with the code or the error, the client's `state` unchanged, and `iss`
 * (RFC 9207), which tells the client the answer comes from this server and no other. A query the
 * redirect URI already has is kept.
 */
import { oauthIssuer } from './oauth-discovery';

export function authorizationRedirect(publicUrl: string, redirectUri: string, parameters: Record<string, string | null | undefined>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(parameters)) if (value !== undefined && value !== null) url.searchParams.set(name, value);
  url.searchParams.set('iss', oauthIssuer(publicUrl));
  return url.href;
}
