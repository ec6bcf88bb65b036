// Calls to the server's /auth/v1 (spec section 7). The session travels in httpOnly cookies
// the server sets and clears, so every call is same-origin with credentials and no call
// here hands a token to the rest of the app: answers are reduced to the session metadata.
import type { Session } from './session-store';

interface AuthUserView {
  id: string;
  email: string;
  user_metadata?: { full_name?: string };
}

export interface AuthSessionView {
  expires_at: number;
  user: AuthUserView;
}

/** A refused or failed /auth/v1 call, with the server's error code and message when it sent one. */
export class AuthApiError extends Error {
  override name = 'AuthApiError';
  readonly status: number;
  readonly code: string | undefined;

  constructor(status: number, code: string | undefined, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }

  /** Gateway and server trouble: worth trying again, unlike a refusal. */
  get retryable(): boolean {
    return this.status === 0 || this.status >= 500 || this.status === 429;
  }
}

export function sessionFromUser(user: AuthUserView, expiresAt?: number): Session {
  return { user: { id: user.id, email: user.email, fullName: user.user_metadata?.full_name }, expiresAt };
}

/** POST or GET an /auth/v1 path; the parsed body of a 2xx answer, else an AuthApiError. */
export async function authRequest<T>(path: string, init: { method?: 'GET' | 'POST'; body?: unknown } = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`/auth/v1${path}`, {
      method: init.method ?? 'GET',
      credentials: 'same-origin',
      headers: { accept: 'application/json', ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  } catch (error) {
    // fetch rejects only when no answer arrived at all.
    throw new AuthApiError(0, undefined, error instanceof Error ? error.message : 'Network error');
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null;
    throw new AuthApiError(response.status, body?.error?.code, body?.error?.message ?? `/auth/v1${path} answered ${response.status}`);
  }
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}

/** Who the cookies belong to; null when they are missing or lapsed. */
export async function fetchCurrentUser(): Promise<AuthUserView | null> {
  try {
    return await authRequest<AuthUserView>('/user');
  } catch (error) {
    if (error instanceof AuthApiError && error.status === 401) return null;
    throw error;
  }
}

/** Rotates the refresh cookie; null when it is missing, spent or revoked (signed out). */
export async function requestRefresh(): Promise<Session | null> {
  try {
    const view = await authRequest<AuthSessionView>('/token?grant_type=refresh_token', { method: 'POST', body: {} });
    return sessionFromUser(view.user, view.expires_at);
  } catch (error) {
    if (error instanceof AuthApiError && (error.status === 401 || error.status === 400)) return null;
    throw error;
  }
}

export async function requestSignOut(): Promise<void> {
  await authRequest<void>('/logout', { method: 'POST', body: {} });
}
