/**
 * Contracts of payment sessions (issue 43): a budget for one agent and one task, with a total, an
 * optional cap per payment, an expiry and an optional scope (sellers by host or pay-to address,
 * categories, protocols, rails). The owner opens one, or the agent asks for one with a reason and
 * the owner grants it (possibly for less, or for a shorter time) or rejects it. While it is open,
 * the agent's payments that name it are authorised against what is left of it, on top of the
 * agent's rules and the owner's policies: a session never lifts a limit set elsewhere.
 *
 * The agent API's side is snake_case like the rest of it; the owner's (console, tRPC) camelCase.
 * Amounts are dollars in, dollars and exact decimal strings out; the server keeps atomic units.
 */
import { z } from 'zod';
import { UNITS_PER_DOLLAR } from '../money';
import { PAYMENT_PROTOCOLS } from './payment-protocols';
import { RAIL_NAMES } from './intents';
import { dollarAmountSchema } from './wallets';

/** The largest total a session may have, in dollars. */
export const PAYMENT_SESSION_MAX_TOTAL = 100_000;
/** How long a session may stay open at most. */
export const PAYMENT_SESSION_MAX_DAYS = 30;
/** Entries at most in each list of a scope. */
export const PAYMENT_SESSION_SCOPE_MAX_ENTRIES = 20;
export const PAYMENT_SESSION_REASON_MAX_LENGTH = 500;

export const PAYMENT_SESSION_STATUSES = ['requested', 'open', 'rejected', 'closed'] as const;
export type PaymentSessionStatus = (typeof PAYMENT_SESSION_STATUSES)[number];

/** Why an open session closed: all of it paid, its time up, or the owner ended it. */
export const PAYMENT_SESSION_CLOSE_REASONS = ['spent', 'expired', 'revoked'] as const;
export type PaymentSessionCloseReason = (typeof PAYMENT_SESSION_CLOSE_REASONS)[number];

export const PAYMENT_SESSION_NOT_FOUND_MESSAGE = 'Payment session not found';
const TOTAL_MESSAGE = `The total must be a positive number of dollars with at most 6 decimals, at most $${PAYMENT_SESSION_MAX_TOTAL.toLocaleString('en-US')}`;
const PER_CALL_MESSAGE = 'The cap per payment must be a positive number of dollars with at most 6 decimals';
const EXPIRY_MESSAGE = `The expiry must be an ISO 8601 date-time in the future, at most ${PAYMENT_SESSION_MAX_DAYS} days away, e.g. 2026-12-31T00:00:00Z`;

const MAX_TOTAL_UNITS = BigInt(PAYMENT_SESSION_MAX_TOTAL) * UNITS_PER_DOLLAR;

const totalSchema = dollarAmountSchema(TOTAL_MESSAGE).refine((units) => units <= MAX_TOTAL_UNITS, { error: TOTAL_MESSAGE });
const perCallSchema = dollarAmountSchema(PER_CALL_MESSAGE);
const expirySchema = z.iso.datetime({ offset: true, error: EXPIRY_MESSAGE });

/** A seller as a scope names it: a host name (`api.example.com`) or a pay-to address (`0x` and 40 hex digits). */
const SELLER_PATTERN = /^(0x[0-9a-fA-F]{40}|(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*)$/;
const SELLER_MESSAGE = 'Each seller must be a host name (api.example.com) or a pay-to address (0x followed by 40 hex digits)';
const CATEGORY_MESSAGE = 'Each category must be 1 to 64 characters';

const listOf = <T extends z.ZodType>(entry: T, what: string) =>
  z.array(entry, { error: `${what} must be a list` }).max(PAYMENT_SESSION_SCOPE_MAX_ENTRIES, { error: `${what}: at most ${PAYMENT_SESSION_SCOPE_MAX_ENTRIES} entries` });

/** What a session may pay for; a list left out (or empty) does not narrow it. Unknown keys are refused. */
export const paymentSessionScopeSchema = z.strictObject(
  {
    sellers: listOf(z.string({ error: SELLER_MESSAGE }).trim().toLowerCase().regex(SELLER_PATTERN, { error: SELLER_MESSAGE }), 'sellers').optional(),
    categories: listOf(z.string({ error: CATEGORY_MESSAGE }).trim().min(1, { error: CATEGORY_MESSAGE }).max(64, { error: CATEGORY_MESSAGE }), 'categories').optional(),
    protocols: listOf(z.enum(PAYMENT_PROTOCOLS, { error: `Each protocol must be one of ${PAYMENT_PROTOCOLS.join(', ')}` }), 'protocols').optional(),
    rails: listOf(z.enum(RAIL_NAMES, { error: `Each rail must be one of ${RAIL_NAMES.join(', ')}` }), 'rails').optional(),
  },
  { error: 'scope may name only sellers, categories, protocols and rails' },
);
export type PaymentSessionScope = z.output<typeof paymentSessionScopeSchema>;

/** The agent's request (POST /budget/request and the request_budget MCP tool). */
export const requestPaymentSessionInput = z.object({
  total: totalSchema,
  per_payment_max: perCallSchema.optional(),
  expires_at: expirySchema,
  scope: paymentSessionScopeSchema.optional(),
  reason: z
    .string({ error: 'Say why the budget is needed (reason)' })
    .trim()
    .min(1, { error: 'Say why the budget is needed (reason)' })
    .max(PAYMENT_SESSION_REASON_MAX_LENGTH, { error: `reason must be at most ${PAYMENT_SESSION_REASON_MAX_LENGTH} characters` }),
});
export type RequestPaymentSessionBody = z.input<typeof requestPaymentSessionInput>;
export type RequestPaymentSessionInput = z.output<typeof requestPaymentSessionInput>;

/** The owner opens a session for one of their agents. */
export const openPaymentSessionInput = z.object({
  agentId: z.uuid({ error: 'Choose one of your agents' }),
  totalUsd: totalSchema,
  perPaymentMaxUsd: perCallSchema.optional(),
  expiresAt: expirySchema,
  scope: paymentSessionScopeSchema.optional(),
  reason: z.string().trim().max(PAYMENT_SESSION_REASON_MAX_LENGTH).optional(),
  /** Charge every payment of the agent to it while it is open, not only those that name it. */
  allPayments: z.boolean({ error: 'allPayments must be true or false' }).optional(),
  /** Set the budget aside now (a hold on the agent's balance), not only cap spend by it. */
  reserve: z.boolean({ error: 'reserve must be true or false' }).optional(),
});
export type OpenPaymentSessionInput = z.output<typeof openPaymentSessionInput>;

/** The owner's routes and procedures on one session, and the agent's GET /budget/{sessionId}. */
export const paymentSessionIdInput = z.object({ sessionId: z.uuid({ error: PAYMENT_SESSION_NOT_FOUND_MESSAGE }) });

/** The owner's answer to a request: grant (optionally for less, or until sooner) or reject with a note. */
export const decidePaymentSessionInput = paymentSessionIdInput.extend({
  approve: z.boolean({ error: 'approve must be true or false' }),
  totalUsd: totalSchema.optional(),
  expiresAt: expirySchema.optional(),
  note: z.string().trim().max(PAYMENT_SESSION_REASON_MAX_LENGTH, { error: `note must be at most ${PAYMENT_SESSION_REASON_MAX_LENGTH} characters` }).optional(),
  /** A grant: charge every payment of the agent to it, not only those that name it. */
  allPayments: z.boolean({ error: 'allPayments must be true or false' }).optional(),
  /** A grant: set the budget aside now (a hold on the agent's balance). */
  reserve: z.boolean({ error: 'reserve must be true or false' }).optional(),
});
export type DecidePaymentSessionInput = z.output<typeof decidePaymentSessionInput>;

/** A session as its owner and its agent see it. */
export const paymentSessionView = z.object({
  id: z.string(),
  agentId: z.string(),
  status: z.enum(PAYMENT_SESSION_STATUSES),
  requestedBy: z.enum(['agent', 'owner']),
  reason: z.string().nullable(),
  total: z.number(),
  totalExact: z.string(),
  perPaymentMax: z.number().nullable(),
  perPaymentMaxExact: z.string().nullable(),
  spent: z.number(),
  spentExact: z.string(),
  remaining: z.number(),
  remainingExact: z.string(),
  scope: paymentSessionScopeSchema,
  expiresAt: z.string(),
  decisionNote: z.string().nullable(),
  closedReason: z.enum(PAYMENT_SESSION_CLOSE_REASONS).nullable(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
  closedAt: z.string().nullable(),
  /** Every payment of the agent is charged to it while it is open, not only those that name it. */
  allPayments: z.boolean(),
  /** Its budget was set aside when it opened; `reserved` is what is set aside now (0 once closed). */
  reserve: z.boolean(),
  reserved: z.number(),
  reservedExact: z.string(),
});
export type PaymentSessionView = z.infer<typeof paymentSessionView>;

/** The expiry a request or a grant may have at `now`: in the future, at most PAYMENT_SESSION_MAX_DAYS away. */
export function paymentSessionExpiryProblem(expiresAt: Date, now: Date): string | null {
  if (expiresAt.getTime() <= now.getTime()) return EXPIRY_MESSAGE;
  if (expiresAt.getTime() - now.getTime() > PAYMENT_SESSION_MAX_DAYS * 86_400_000) return EXPIRY_MESSAGE;
  return null;
}

/** Requests of one agent that may wait for its owner at once; one more is refused (409). */
export const PAYMENT_SESSION_MAX_WAITING_REQUESTS = 5;
/** Sessions the owner's list answers at most, newest first. */
export const PAYMENT_SESSION_LIST_LIMIT = 200;
/** Sessions the agent's list (GET /budgets) answers at most, newest first. */
export const AGENT_PAYMENT_SESSION_LIST_LIMIT = 50;

/** The owner's list: every session of theirs, or one agent's, or those in one status. */
export const listPaymentSessionsInput = z.object({
  agentId: z.uuid({ error: 'agentId must be the id of one of your agents' }).optional(),
  status: z.enum(PAYMENT_SESSION_STATUSES, { error: `status must be one of ${PAYMENT_SESSION_STATUSES.join(', ')}` }).optional(),
});
export type ListPaymentSessionsInput = z.output<typeof listPaymentSessionsInput>;

export const paymentSessionListView = z.object({ sessions: z.array(paymentSessionView) });
export type PaymentSessionListView = z.infer<typeof paymentSessionListView>;

/** The agent's view of one of its sessions (snake_case), with what to do next in `message`. */
export const agentPaymentSessionView = z.object({
  session_id: z.string(),
  status: z.enum(PAYMENT_SESSION_STATUSES),
  total: z.number(),
  total_exact: z.string(),
  per_payment_max: z.number().nullable(),
  per_payment_max_exact: z.string().nullable(),
  spent: z.number(),
  spent_exact: z.string(),
  remaining: z.number(),
  remaining_exact: z.string(),
  scope: paymentSessionScopeSchema,
  expires_at: z.string(),
  reason: z.string().nullable(),
  decision_note: z.string().nullable(),
  closed_reason: z.enum(PAYMENT_SESSION_CLOSE_REASONS).nullable(),
  created_at: z.string(),
  /** Every payment of the agent is charged to it while it is open, session_id or not. */
  all_payments: z.boolean(),
  message: z.string(),
  /**
   * Only in the answer to the request (POST /budget/request, request_budget): the one-time link
   * the owner opens to decide it, signed in, within PAYMENT_SESSION_APPROVAL_LINK_MINUTES.
   */
  approval_url: z.string().optional(),
});
export type AgentPaymentSessionView = z.infer<typeof agentPaymentSessionView>;

/** The agent's answer to its request: the view with the owner's one-time approval link. */
export const agentRequestedPaymentSessionView = agentPaymentSessionView.extend({ approval_url: z.string() });
export type AgentRequestedPaymentSessionView = z.infer<typeof agentRequestedPaymentSessionView>;

export const agentPaymentSessionListView = z.object({ budgets: z.array(agentPaymentSessionView) });
export type AgentPaymentSessionListView = z.infer<typeof agentPaymentSessionListView>;

/** What the agent should do next with a session as it stands. */
export function agentPaymentSessionMessage(session: Pick<PaymentSessionView, 'id' | 'status' | 'remainingExact' | 'expiresAt' | 'closedReason' | 'allPayments' | 'decidedAt'>): string {
  switch (session.status) {
    case 'requested':
      return `Waiting for the owner to decide. Read GET /budget/${session.id} (or the get_budget tool) until status is open, then pass session_id ${session.id} with each payment.`;
    case 'open':
      return session.allPayments
        ? `Open for all your payments: each one counts against the ${session.remainingExact} USDC left until ${session.expiresAt}, session_id or not.`
        : `Open: pass session_id ${session.id} with each payment; they count against the ${session.remainingExact} USDC left until ${session.expiresAt}.`;
    case 'rejected':
      return 'The owner rejected this request (see decision_note). Do not pay against it; ask again only with a new reason.';
    case 'closed':
      if (session.closedReason === 'expired' && session.decidedAt === null) {
        return 'This request expired before the owner decided: nothing was granted. Ask again, with a later expiry, if the task still needs it.';
      }
      return `Closed (${session.closedReason ?? 'ended'}): payments can no longer name it. Request a new budget if the task needs more.`;
  }
}

export const PAYMENT_SESSION_REQUESTED_EVENT = 'budget.requested';
export const PAYMENT_SESSION_GRANTED_EVENT = 'budget.granted';
export const PAYMENT_SESSION_REJECTED_EVENT = 'budget.rejected';
export const PAYMENT_SESSION_CLOSED_EVENT = 'budget.closed';
/** The webhook events of payment sessions; each body carries the session (paymentSessionView). */
export const PAYMENT_SESSION_EVENTS = [PAYMENT_SESSION_REQUESTED_EVENT, PAYMENT_SESSION_GRANTED_EVENT, PAYMENT_SESSION_REJECTED_EVENT, PAYMENT_SESSION_CLOSED_EVENT] as const;
export type PaymentSessionEvent = (typeof PAYMENT_SESSION_EVENTS)[number];

/** The body of a budget.* webhook (`id` is the `webhook-id`). */
export const paymentSessionEventView = z.object({
  id: z.string(),
  type: z.enum(PAYMENT_SESSION_EVENTS),
  createdAt: z.string(),
  data: z.object({ session: paymentSessionView }),
});
export type PaymentSessionEventView = z.infer<typeof paymentSessionEventView>;

// ---------------------------------------------------------------- the one-time approval link

/** How long the approval link of a request works: short, so a link that leaks soon stops working. */
export const PAYMENT_SESSION_APPROVAL_LINK_MINUTES = 30;
/** Where the link opens in the web app: `<public URL>/approve/<token>`. */
export const PAYMENT_SESSION_APPROVAL_PATH = '/approve';
export const APPROVAL_LINK_NOT_FOUND_MESSAGE = 'This approval link is not valid: it may be mistyped, or it belongs to another account';

/** The owner opens the link: its token, from the page's URL. */
export const paymentSessionApprovalLinkInput = z.object({
  token: z.string({ error: APPROVAL_LINK_NOT_FOUND_MESSAGE }).trim().min(1, { error: APPROVAL_LINK_NOT_FOUND_MESSAGE }).max(200, { error: APPROVAL_LINK_NOT_FOUND_MESSAGE }),
});

/** What the link opens: the request, the agent that asked, and until when the link works. */
export const paymentSessionApprovalLinkView = z.object({
  session: paymentSessionView,
  agentName: z.string(),
  linkExpiresAt: z.string(),
});
export type PaymentSessionApprovalLinkView = z.infer<typeof paymentSessionApprovalLinkView>;

/** The owner decides through the link: the same answer as decidePaymentSessionInput, with the link's token. */
export const decidePaymentSessionByLinkInput = decidePaymentSessionInput.extend(paymentSessionApprovalLinkInput.shape);
export type DecidePaymentSessionByLinkBody = z.input<typeof decidePaymentSessionByLinkInput>;
export type DecidePaymentSessionByLinkInput = z.output<typeof decidePaymentSessionByLinkInput>;
