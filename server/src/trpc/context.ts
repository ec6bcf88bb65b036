import type { AppDeps } from '../deps';
import type { AuthenticatedOwner } from '../services/auth/authenticate-owner';


export interface Context extends AppDeps {
  requestId: string;
  /** The owner behind the request's session or owner API key; null when signed out. */
  owner: AuthenticatedOwner | null;
  /**
   * Checks the request's credentials again, for work that outlives the request (a
   * subscription): null once the session is signed out, revoked or expired, or the API key
   * revoked. Absent for in-process callers (createCaller in tests), which hold no credentials.
   */
  reauthenticate?: () => Promise<AuthenticatedOwner | null>;
  /** How often an open subscription calls reauthenticate (default in trpc/realtime/owner-events.ts). */
  realtimeAuthCheckMs?: number;
}
