/**
 * One error type for every surface. Each code has a fixed HTTP status; the tRPC, REST,
 * MCP and n8n layers map from this table only, so a code means the same thing everywhere.
 */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  VALIDATION_FAILED: 400,
  INVALID_AMOUNT: 400,
  /**
   * An outbound URL (an x402 upstream, a webhook endpoint) whose host is, or resolves to, an
   * address Purser never calls: link-local, cloud metadata, private, or loopback outside the
   * sandbox. Refused before any connection is made.
   */
  URL_NOT_ALLOWED: 400,
  UNAUTHORIZED: 401,
  /** An owner API key past its `expires_at`: create a new one. Nothing ran. */
  API_KEY_EXPIRED: 401,
  FORBIDDEN: 403,
  /** An owner API key without the scope the operation requires (the message names it). Nothing ran. */
  API_KEY_SCOPE_MISSING: 403,
  /**
   * A write sent with the session cookie from a page of another origin (or one that does not say
   * where it comes from): a cross-site request forgery, refused before anything ran.
   */
  CROSS_ORIGIN_REQUEST: 403,
  /**
   * An OAuth access token without the scope the call needs (`read`, `pay` or `fetch`; the
   * message and the `WWW-Authenticate` challenge name it). Nothing ran.
   */
  INSUFFICIENT_SCOPE: 403,
  AGENT_SUSPENDED: 403,
  /**
   * A request Purser would sign for the agent (an HTTP message signature, a sign-in-with-x
   * message) to a host the owner's policies refuse, or a sign-in message naming another domain
   * than the request's. Nothing was signed or sent.
   */
  SIGNATURE_REFUSED: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  IDEMPOTENCY_CONFLICT: 409,
  /** A one-time approval link of a budget request that was already used: nothing changed. */
  APPROVAL_LINK_USED: 409,
  /** A one-time approval link of a budget request past its short life: nothing changed; decide in the console. */
  APPROVAL_LINK_EXPIRED: 409,
  /**
   * A sandbox shortcut (test-money top-up, the sandbox KYA verifier) asked of a deployment on a
   * real network, where it would mint money or vouch for an identity. Nothing changed.
   */
  SANDBOX_ONLY: 409,
  INSUFFICIENT_FUNDS: 422,
  POLICY_VIOLATION: 422,
  /** The rail refused the payment (a card or bank decline): final, retrying will not help. */
  PAYMENT_DECLINED: 422,
  /** The chosen rail cannot carry this payment (or not through this surface). */
  RAIL_UNAVAILABLE: 422,
  /**
   * An x402 requirement or payment header Purser will not sign or forward: two prices, a scheme
   * or transfer method it does not price exactly, another asset, network or payee than the one
   * priced, a window longer than allowed. Nothing is held or signed.
   */
  X402_REFUSED: 422,
  PAYLOAD_TOO_LARGE: 413,
  /** An upstream the agent asked us to call (an x402 seller) failed or broke a limit. */
  UPSTREAM_ERROR: 502,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  /**
   * A capture the chain's reading does not allow (more moved than was held, a settlement that
   * cannot be matched to its payment): the payment stops, its funds stay held, and an operator is
   * alerted (docs/operations.md). Never retried.
   */
  CAPTURE_INVARIANT: 500,
  UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class AppError extends Error {
  override name = 'AppError';
  readonly code: ErrorCode;
  readonly httpStatus: number;
  readonly details: unknown;

  constructor(code: ErrorCode, message: string, options: { details?: unknown; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.code = code;
    this.httpStatus = ERROR_STATUS[code];
    this.details = options.details;
  }

  toJSON(): { error: { code: ErrorCode; message: string } } {
    return { error: { code: this.code, message: this.message } };
  }
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}
