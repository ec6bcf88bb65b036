// Where agents reach the agent REST/MCP API of this deployment. The server knows its public
// address (PUBLIC_URL) and publishes it as its credential issuer identifier at
// /.well-known/jwt-vc-issuer; every agent's DID document advertises `<that address><prefix>`
// as its AgentService endpoint. The connect page shows the same URL, so what the owner copies
// is what the agent's DID says, even when the owner reached the dashboard through another host
// name. When the address cannot be read (the Vite dev and preview servers do not forward
// /.well-known; an old server), the page's own origin stands in.

/** The server's AGENT_API_PREFIX (core/src/contracts/agent-api.ts). */
export const AGENT_API_PREFIX = '/functions/v1/mcp-server';
export const ISSUER_METADATA_PATH = '/.well-known/jwt-vc-issuer';
const TIMEOUT_MS = 5_000;

/** The agent API base URL from the issuer metadata document, else from `origin`. */
export function agentApiBaseUrl(issuerMetadata: unknown, origin: string): string {
  return `${publicAddress(issuerMetadata) ?? origin.replace(/\/+$/, '')}${AGENT_API_PREFIX}`;
}

function publicAddress(metadata: unknown): string | null {
  if (typeof metadata !== 'object' || metadata === null || !('issuer' in metadata)) return null;
  const { issuer } = metadata;
  if (typeof issuer !== 'string') return null;
  try {
    const url = new URL(issuer);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
    return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
  } catch {
    return null;
  }
}

/** Reads the issuer metadata and answers the base URL; never fails (falls back to the origin). */
export async function fetchAgentApiBaseUrl(origin: string = window.location.origin): Promise<string> {
  try {
    const response = await fetch(ISSUER_METADATA_PATH, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(TIMEOUT_MS) });
    if (!response.ok || !response.headers.get('content-type')?.includes('json')) return agentApiBaseUrl(null, origin);
    return agentApiBaseUrl(await response.json(), origin);
  } catch {
    return agentApiBaseUrl(null, origin);
  }
}
