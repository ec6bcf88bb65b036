// What the approval page says when its link cannot decide: one title and sentence per refusal
// the server answers (its AppError code, in tRPC's `data.appCode`), and the way out.
import { PAYMENT_SESSION_APPROVAL_LINK_MINUTES } from '@purser/core';

export type LinkProblem = 'used' | 'expired' | 'notFound' | 'decided';

export const LINK_PROBLEMS: Record<LinkProblem, { title: string; message: string }> = {
  used: {
    title: 'This link was already used',
    message: 'Each approval link decides its request once, and this one already did. The approvals page shows the decision.',
  },
  expired: {
    title: 'This link expired',
    message: `Approval links work for ${PAYMENT_SESSION_APPROVAL_LINK_MINUTES} minutes. If the request is still waiting, decide it on the approvals page.`,
  },
  notFound: {
    title: 'This link is not valid',
    message: 'It may be mistyped, or it was sent to another account: sign in with the account the agent belongs to.',
  },
  decided: {
    title: 'Request no longer waiting',
    message: 'This budget request was already granted, rejected or ended elsewhere, or it expired before anyone decided. The approvals page shows where it stands.',
  },
};

/** The refusal behind a tRPC error, or null for a failure to retry (network, server fault). */
export function linkProblemOf(error: unknown): LinkProblem | null {
  switch (appCodeOf(error)) {
    case 'APPROVAL_LINK_USED':
      return 'used';
    case 'APPROVAL_LINK_EXPIRED':
      return 'expired';
    case 'NOT_FOUND':
      return 'notFound';
    case 'CONFLICT':
      return 'decided';
    default:
      return null;
  }
}

/** The AppError code of a tRPC error (the server's errorFormatter puts it in `data.appCode`). */
export function appCodeOf(error: unknown): string | null {
  if (typeof error !== 'object' || error === null || !('data' in error)) return null;
  const data = (error as { data?: { appCode?: unknown } | null }).data;
  return typeof data?.appCode === 'string' ? data.appCode : null;
}

/** The server's message, else the fallback (a network failure carries only the browser's words). */
export function serverMessage(error: unknown, fallback: string): string {
  const fromServer = error instanceof Error && 'data' in error && typeof error.data === 'object' && error.data !== null;
  return fromServer && error.message.trim() !== '' ? error.message : fallback;
}
