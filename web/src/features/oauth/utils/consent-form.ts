// The consent page's form: the owner's choices <-> oauth.approve's input. Checked with the
// server's own schema (core's approveOAuthRequestInput), so the page shows the very message the
// server would answer. Also what the page says about the request itself: the host the browser
// returns to (a phishing client shows itself there, whatever name it claims) and the stable
// sentences for a request that can no longer be decided.
import { approveOAuthRequestInput, type ApproveOAuthRequestBody, type OAuthAuthorizationRequestView, type OAuthScope } from '@purser/core';

export const EXPIRY_CHOICES = [
  { value: '7', label: '7 days', days: 7 },
  { value: '30', label: '30 days', days: 30 },
  { value: '90', label: '90 days', days: 90 },
  { value: 'never', label: 'Never', days: null },
] as const;
export type ExpiryChoice = (typeof EXPIRY_CHOICES)[number]['value'];

export interface ConsentForm {
  agentId: string;
  scopes: OAuthScope[];
  /** Dollars, as typed; empty: no cap of its own. */
  cap: string;
  expiry: ExpiryChoice;
}

export type ConsentField = 'agentId' | 'scopes' | 'cap' | 'expiry';

/** Every requested scope ticked, no cap, no expiry; the agent preselected when the owner has exactly one that can be chosen. */
export function initialConsentForm(request: Pick<OAuthAuthorizationRequestView, 'scopes'>, agents: ReadonlyArray<{ id: string; status: string }>): ConsentForm {
  const active = agents.filter((agent) => agent.status === 'active');
  return { agentId: active.length === 1 ? active[0]!.id : '', scopes: [...request.scopes], cap: '', expiry: 'never' };
}

/** The scopes ticked after `scope` is ticked or unticked, in the request's order. */
export function toggleScope(requested: readonly OAuthScope[], ticked: readonly OAuthScope[], scope: OAuthScope, on: boolean): OAuthScope[] {
  return requested.filter((candidate) => (candidate === scope ? on : ticked.includes(candidate)));
}

export function expiryDate(choice: ExpiryChoice, now: Date): Date | null {
  const days = EXPIRY_CHOICES.find((entry) => entry.value === choice)?.days ?? null;
  return days === null ? null : new Date(now.getTime() + days * 24 * 60 * 60 * 1000);
}

export type ConsentResult = { ok: true; input: ApproveOAuthRequestBody } | { ok: false; errors: Partial<Record<ConsentField, string>> };

const FIELD_OF_INPUT: Record<string, ConsentField> = { agentId: 'agentId', scopes: 'scopes', capUsd: 'cap', expiresAt: 'expiry' };

/** oauth.approve's input, or the first message for each field that is wrong. */
export function consentInput(requestId: string, form: ConsentForm, now: Date): ConsentResult {
  const expiresAt = expiryDate(form.expiry, now);
  const cap = form.cap.trim();
  const input: ApproveOAuthRequestBody = {
    requestId,
    agentId: form.agentId,
    scopes: form.scopes,
    ...(cap === '' ? {} : { capUsd: cap }),
    ...(expiresAt === null ? {} : { expiresAt: expiresAt.toISOString() }),
  };
  const errors: Partial<Record<ConsentField, string>> = {};
  if (form.agentId === '') errors.agentId = 'Choose one of your agents';
  const parsed = approveOAuthRequestInput.safeParse(input);
  if (parsed.success && parsed.data.capUnits !== null && parsed.data.capUnits <= 0n) errors.cap = 'The spending cap must be more than 0';
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = FIELD_OF_INPUT[String(issue.path[0])];
      if (field && !errors[field]) errors[field] = issue.message;
    }
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, input };
}

/** The host the browser goes back to, shown large: `localhost:3000`, `app.example.com`. */
export function redirectHost(redirectUri: string): string {
  try {
    return new URL(redirectUri).host || redirectUri;
  } catch {
    return redirectUri;
  }
}

/** True for a loopback redirect (a desktop app or CLI on this computer, RFC 8252). */
export function isLoopbackRedirect(redirectUri: string): boolean {
  try {
    const { hostname } = new URL(redirectUri);
    return hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]';
  } catch {
    return false;
  }
}

/** What the page calls the client: the name it claims (nothing vouches for it), or that it gave none. */
export function clientLabel(client: OAuthAuthorizationRequestView['client']): string {
  return client.name?.trim() || 'An unnamed application';
}

export const REQUEST_MESSAGES = {
  missing: 'This link has no authorization request in it. Start connecting again from your assistant.',
  notFound: 'This authorization request does not exist or belongs to another account. Start connecting again from your assistant.',
  expired: 'This authorization request has expired. Start connecting again from your assistant.',
  approved: 'This authorization request was already approved. Nothing more to do here.',
  denied: 'This authorization request was already denied. Start connecting again from your assistant if you change your mind.',
} as const;
export type RequestProblem = keyof typeof REQUEST_MESSAGES;

/** Why a request cannot be decided any more, from its status; null while it is pending. */
export function problemOfStatus(status: OAuthAuthorizationRequestView['status']): RequestProblem | null {
  return status === 'pending' ? null : status;
}
