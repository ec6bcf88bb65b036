/**
 * Contracts of Purser's OAuth 2.1 authorization server for the agent API and the MCP endpoint
 * (issue 42): the scopes a connection may hold, the owner's consent (the web app's consent page
 * and its tRPC procedures), the connections the console lists and the connection.* webhook
 * events. camelCase, like the webhook contracts. Amounts are dollars: a number for display and an
 * exact decimal string beside it; the server keeps atomic units.
 */
import { z } from 'zod';
import { dollarAmountSchema } from './wallets';

/** What an MCP host connected through OAuth may do as its agent. */
export const OAUTH_SCOPES = ['read', 'pay', 'fetch'] as const;
export type OAuthScope = (typeof OAUTH_SCOPES)[number];

/** One line per scope: the consent page shows them, the docs repeat them. */
export const OAUTH_SCOPE_DESCRIPTIONS: Record<OAuthScope, string> = {
  read: "Read the agent's balances, its payment history and its details",
  pay: 'Make payments as the agent, within its spending rules and this connection’s cap',
  fetch: 'Make paid HTTP calls (x402, MPP) as the agent, within its spending rules and this connection’s cap',
};

/** A request that names no scope asks for all of them. */
export const DEFAULT_OAUTH_SCOPES: readonly OAuthScope[] = OAUTH_SCOPES;

export const OAUTH_CONNECTION_CREATED_EVENT = 'connection.created';
export const OAUTH_CONNECTION_REVOKED_EVENT = 'connection.revoked';
export const OAUTH_CONNECTION_EVENTS = [OAUTH_CONNECTION_CREATED_EVENT, OAUTH_CONNECTION_REVOKED_EVENT] as const;
export type OAuthConnectionEvent = (typeof OAUTH_CONNECTION_EVENTS)[number];

/** Why a connection ended: its owner, the client (RFC 7009), or a replayed code or refresh token. */
export const OAUTH_REVOCATION_REASONS = ['owner', 'client', 'authorization_code_reuse', 'refresh_token_reuse'] as const;
export type OAuthRevocationReason = (typeof OAUTH_REVOCATION_REASONS)[number];

const SCOPES_MESSAGE = `scopes must be one or more of ${OAUTH_SCOPES.join(', ')}`;

/** At least one; kept once each, in the order of OAUTH_SCOPES. */
export const oauthScopesSchema = z
  .array(z.enum(OAUTH_SCOPES, { error: SCOPES_MESSAGE }), { error: SCOPES_MESSAGE })
  .min(1, { error: 'Choose at least one scope' })
  .transform((scopes) => OAUTH_SCOPES.filter((scope) => scopes.includes(scope)));

export const OAUTH_CAP_MESSAGE = 'The spending cap must be a positive number of dollars with at most 6 decimals';

// ---------------------------------------------------------------- requests

export const oauthRequestIdInput = z.object({ requestId: z.string({ error: 'requestId is required' }).min(1).max(100) });
export type OAuthRequestIdInput = z.output<typeof oauthRequestIdInput>;

/**
 * The owner's approval: which agent the client acts as, which of the requested scopes it gets,
 * and optionally a spending cap (dollars, more than 0) and an expiry for this connection. The
 * agent's own rules still apply; the cap only narrows them. The output carries the cap in atomic
 * units (`capUnits`).
 */
export const approveOAuthRequestInput = oauthRequestIdInput
  .extend({
    agentId: z.uuid({ error: 'Choose one of your agents' }),
    scopes: oauthScopesSchema,
    capUsd: dollarAmountSchema(OAUTH_CAP_MESSAGE).optional(),
    expiresAt: z.iso.datetime({ offset: true, error: 'expiresAt must be an ISO 8601 date-time, e.g. 2026-12-31T00:00:00Z' }).optional(),
  })
  .transform(({ capUsd, expiresAt, ...rest }) => ({ ...rest, capUnits: capUsd ?? null, expiresAt: expiresAt === undefined ? null : new Date(expiresAt) }));
export type ApproveOAuthRequestBody = z.input<typeof approveOAuthRequestInput>;
export type ApproveOAuthRequestInput = z.output<typeof approveOAuthRequestInput>;

export const listAgentConnectionsInput = z.object({ agentId: z.uuid({ error: 'Agent id must be a UUID' }) });
export const oauthConnectionIdInput = z.object({ connectionId: z.uuid({ error: 'Connection not found' }) });

// ---------------------------------------------------------------- responses

export const OAUTH_REQUEST_STATUSES = ['pending', 'approved', 'denied', 'expired'] as const;

/** What the consent page shows of a pending authorization request. */
export const oauthAuthorizationRequestView = z.object({
  requestId: z.string(),
  status: z.enum(OAUTH_REQUEST_STATUSES),
  client: z.object({
    /** A registered client's id, or the URL of its metadata document (the host it comes from is worth showing). */
    id: z.string(),
    /** What the client calls itself: nothing vouches for it. */
    name: z.string().nullable(),
    uri: z.string().nullable(),
  }),
  /** Where the browser goes after the decision. */
  redirectUri: z.string(),
  scopes: z.array(z.enum(OAUTH_SCOPES)),
  /** The agent API or the MCP endpoint the tokens will work on. */
  resource: z.string(),
  expiresAt: z.string(),
});
export type OAuthAuthorizationRequestView = z.infer<typeof oauthAuthorizationRequestView>;

/** The answer to approve and deny: where the consent page sends the browser. */
export const oauthDecisionView = z.object({ redirectUrl: z.string() });
export type OAuthDecisionView = z.infer<typeof oauthDecisionView>;

/** A connected client of an agent, as the console lists it and connection.* webhooks carry it. */
export const oauthConnectionView = z.object({
  id: z.string(),
  agentId: z.string(),
  clientId: z.string(),
  clientName: z.string().nullable(),
  clientUri: z.string().nullable(),
  resource: z.string(),
  scopes: z.array(z.enum(OAUTH_SCOPES)),
  /** The connection's own spending cap; null: only the agent's rules limit it. */
  cap: z.number().nullable(),
  capExact: z.string().nullable(),
  /** Spent through this connection against its cap. */
  spent: z.number(),
  spentExact: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  revokedReason: z.enum(OAUTH_REVOCATION_REASONS).nullable(),
});
export type OAuthConnectionView = z.infer<typeof oauthConnectionView>;

export const oauthConnectionListView = z.object({ connections: z.array(oauthConnectionView) });
export type OAuthConnectionListView = z.infer<typeof oauthConnectionListView>;

/** The body of a connection.created or connection.revoked webhook (`id` is the `webhook-id`). */
export const oauthConnectionEventView = z.object({
  id: z.string(),
  type: z.enum(OAUTH_CONNECTION_EVENTS),
  createdAt: z.string(),
  data: z.object({ connection: oauthConnectionView }),
});
export type OAuthConnectionEventView = z.infer<typeof oauthConnectionEventView>;

