/**
 * An agent's payment client that behaves like a careful real one: every logical payment has
 * its own Idempotency-Key, and the same request with the same key is sent again until a final
 * answer comes back. It retries on 429 and 503 (honouring Retry-After, else exponential
 * back-off with full jitter, capped), on the other 5xx answers, on connection errors and
 * timeouts (the server is down or restarting), and on 202 (the payment is still on its way).
 * Final: 200, 409 and 422 (and any other 4xx, which the tests then flag). Every attempt is
 * recorded, so a test can say what the client saw while a fault lasted.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { AGENT_API } from './x402-fixtures';

export interface ClientAgent {
  id: string;
  headers: Record<string, string>;
}

export type PaymentRequest =
  | { kind: 'ledger'; amount: number; toAddress: string }
  /** An x402 payment through /x402/fetch of `path` on the product's own sandbox paid API. */
  | { kind: 'x402'; path: '/weather' | '/quote' | '/report' };

export interface Attempt {
  /** HTTP status, or the connection error's code ('ECONNREFUSED', 'timeout', ...). */
  answer: number | string;
  /** The error body's code, when the answer was an error ('INTERNAL', 'CONFLICT', ...). */
  code?: string;
  at: number;
}

export interface PaymentOutcome {
  key: string;
  agentId: string;
  request: PaymentRequest;
  /** The final answer; null when the client gave up (its deadline passed). */
  final: { status: number; body: Record<string, unknown> } | null;
  attempts: Attempt[];
}

export interface RetryPolicy {
  initialBackoffMs: number;
  maxBackoffMs: number;
  /** One attempt's limit: the server itself answers 202 after 30 s of waiting. */
  attemptTimeoutMs: number;
  /** The client gives up on a payment after this long. */
  deadlineMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { initialBackoffMs: 100, maxBackoffMs: 2_000, attemptTimeoutMs: 35_000, deadlineMs: 60_000 };

const RETRIED_STATUSES = new Set([202, 429, 500, 502, 503, 504]);

export class RetryingClient {
  constructor(
    /** The product's base URL, e.g. http://127.0.0.1:3000. */
    private readonly baseUrl: string,
    private readonly policy: RetryPolicy = DEFAULT_RETRY_POLICY,
  ) {}

  /** Sends `request` until its final answer; `signal` makes the client give up at once (the test already failed). */
  async pay(agent: ClientAgent, request: PaymentRequest, key: string, signal?: AbortSignal): Promise<PaymentOutcome> {
    const outcome: PaymentOutcome = { key, agentId: agent.id, request, final: null, attempts: [] };
    const started = Date.now();
    for (let retry = 0; Date.now() - started < this.policy.deadlineMs && !signal?.aborted; retry++) {
      const answer = await this.send(agent, request, key);
      const code = 'status' in answer ? (answer.body.error as { code?: string } | undefined)?.code : undefined;
      outcome.attempts.push({ answer: 'status' in answer ? answer.status : answer.error, ...(code ? { code } : {}), at: Date.now() - started });
      if ('status' in answer && !RETRIED_STATUSES.has(answer.status)) {
        outcome.final = answer;
        return outcome;
      }
      await sleep(this.delay(retry, 'retryAfter' in answer ? answer.retryAfter : null));
    }
    return outcome;
  }

  private async send(
    agent: ClientAgent,
    request: PaymentRequest,
    key: string,
  ): Promise<{ status: number; body: Record<string, unknown>; retryAfter: number | null } | { error: string }> {
    const [path, body] =
      request.kind === 'ledger'
        ? ['/payment', { amount: request.amount, currency: 'USDC', to_address: request.toAddress, description: `fault suite ${key}` }]
        : ['/x402/fetch', { url: `${this.baseUrl}/sandbox/paid${request.path}?city=Lisbon`, category: 'x402' }];
    try {
      const response = await fetch(`${this.baseUrl}${AGENT_API}${path}`, {
        method: 'POST',
        headers: { ...agent.headers, 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.policy.attemptTimeoutMs),
      });
      const text = await response.text();
      const retryAfter = Number(response.headers.get('retry-after'));
      return {
        status: response.status,
        body: parseJson(text),
        retryAfter: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : null,
      };
    } catch (error) {
      return { error: connectionErrorCode(error) };
    }
  }

  /** Retry-After when the server gave one, else exponential back-off with full jitter, capped. */
  private delay(retry: number, retryAfterMs: number | null): number {
    if (retryAfterMs !== null) return Math.min(retryAfterMs, this.policy.maxBackoffMs * 5);
    const ceiling = Math.min(this.policy.maxBackoffMs, this.policy.initialBackoffMs * 2 ** retry);
    return ceiling / 2 + Math.random() * (ceiling / 2);
  }
}

export interface BurstOptions {
  concurrency: number;
  /** Aborted: every payment not yet answered is given up. */
  signal?: AbortSignal;
  /** Called after each payment's final answer (or give-up), with how many are done. */
  onDone?: (done: number, outcome: PaymentOutcome) => void;
}

/** Sends every payment, `concurrency` at a time, each until its final answer (through its own `client` when it names one). */
export async function runBurst(
  client: RetryingClient,
  payments: Array<{ agent: ClientAgent; request: PaymentRequest; key: string; client?: RetryingClient }>,
  options: BurstOptions,
): Promise<PaymentOutcome[]> {
  const outcomes: PaymentOutcome[] = [];
  let next = 0;
  const lane = async () => {
    while (next < payments.length) {
      const payment = payments[next++]!;
      const outcome = await (payment.client ?? client).pay(payment.agent, payment.request, payment.key, options.signal);
      outcomes.push(outcome);
      options.onDone?.(outcomes.length, outcome);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, lane));
  return outcomes;
}

function label(attempt: Attempt): string {
  return attempt.code ? `${attempt.answer} ${attempt.code}` : String(attempt.answer);
}

/** How many attempts of the burst got each answer, e.g. { 200: 20, '503 SERVICE_UNAVAILABLE': 4, ECONNREFUSED: 9 }. */
export function answerCounts(outcomes: PaymentOutcome[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const attempt of outcomes.flatMap((outcome) => outcome.attempts)) counts[label(attempt)] = (counts[label(attempt)] ?? 0) + 1;
  return counts;
}

/** One payment's answers in order, repeats folded: "ECONNREFUSED x12, 202, 200". */
export function answerTrail(outcome: PaymentOutcome): string {
  const runs: Array<{ label: string; count: number }> = [];
  for (const attempt of outcome.attempts) {
    const last = runs.at(-1);
    if (last?.label === label(attempt)) last.count++;
    else runs.push({ label: label(attempt), count: 1 });
  }
  return runs.map((run) => (run.count > 1 ? `${run.label} x${run.count}` : run.label)).join(', ');
}

function parseJson(text: string): Record<string, unknown> {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return { text };
  }
}

/** fetch's failures wrap the socket error: ECONNREFUSED, ECONNRESET, UND_ERR_SOCKET, or a timeout. */
function connectionErrorCode(error: unknown): string {
  if (error instanceof DOMException && error.name === 'TimeoutError') return 'timeout';
  const cause = (error as { cause?: { code?: string; name?: string } }).cause;
  return cause?.code ?? cause?.name ?? (error as Error).name ?? 'error';
}
