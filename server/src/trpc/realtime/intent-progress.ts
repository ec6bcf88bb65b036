/**
 * One payment's live flow for the console's drawing: the IntentProgressView on subscribe and
 * again whenever the payment changed, pushed by the event bus and never polled on a timer.
 *
 * What announces a change: the intent row (every status move, and the hold, capture and
 * release, which each update it in the ledger posting's own transaction: reservedAt,
 * settledAt, releasedAt) and its rail operation (created, and each status change); both send
 * the 'intents' topic with the intent's id. The agent_transactions topic names no intent, so
 * it is not listened to: the intent row has already spoken for each of its postings.
 *
 * The database commits a step before the workflow records it in its progress, so the query
 * read on a notification can be one step behind. When the database says the payment ended
 * but the workflow still reports a step in hand, the stream waits for the workflow to close
 * (Temporal's long poll) and sends its final steps.
 */
import { TRPCError } from '@trpc/server';
import { TERMINAL_INTENT_STATUSES, type IntentProgressView } from '@purser/core';
import { getIntent } from '../../services/intents/get-intent';
import { getIntentProgress } from '../../services/intents/get-intent-progress';
import { closedPaymentProgress } from '../../services/intents/payment-workflows';
import type { Context } from '../context';
import type { AuthenticatedOwner } from '../../services/auth/authenticate-owner';
import { ownerProcedure } from '../init';
import { ownerEvents } from './owner-events';
import { intentProgressInput } from './intent-progress.types';

type ProgressContext = Context & { owner: AuthenticatedOwner };

export const intentProgress = ownerProcedure.input(intentProgressInput).subscription(async ({ ctx, input, signal }) => {
  // Before the stream: an unknown or foreign id fails like any query (NOT_FOUND), not mid-stream.
  await getIntent(ctx.db.prisma, ctx.owner.userId, input.intentId);
  return progressUpdates(ctx, input.intentId, signal);
});

async function* progressUpdates(ctx: ProgressContext, intentId: string, signal: AbortSignal | undefined): AsyncGenerator<IntentProgressView, void> {
  let last: string | undefined;
  const changed = (view: IntentProgressView) => {
    const text = JSON.stringify(view);
    if (text === last) return false;
    last = text;
    return true;
  };
  // The first message is 'sync': the stream is live, so the view read now misses nothing later.
  for await (const message of ownerEvents(ctx, ['intents'], signal)) {
    if (message.type === 'event' && message.event.intentId !== intentId) continue;
    const view = await readProgress(ctx, intentId);
    if (changed(view)) yield view;
    if (TERMINAL_INTENT_STATUSES.includes(view.status) && view.currentStep !== null) {
      const closed = await finalSteps(ctx, intentId, signal);
      if (closed === 'aborted') return;
      if (closed) {
        const final = { ...view, currentStep: closed.currentStep, steps: closed.steps };
        if (changed(final)) yield final;
      }
    }
  }
}

async function readProgress(ctx: ProgressContext, intentId: string): Promise<IntentProgressView> {
  try {
    return await getIntentProgress(ctx, ctx.owner.userId, intentId);
  } catch (error) {
    ctx.logger.warn({ err: error, intentId }, 'could not read the progress of a payment for its live stream; ending it');
    // Retryable: the client reconnects and reads again.
    throw new TRPCError({ code: 'SERVICE_UNAVAILABLE', message: "The payment's progress could not be read; reconnect", cause: error });
  }
}

async function finalSteps(ctx: ProgressContext, intentId: string, signal: AbortSignal | undefined) {
  const stop = signal ?? new AbortController().signal;
  try {
    return await closedPaymentProgress(ctx.temporal, intentId, stop);
  } catch (error) {
    if (stop.aborted) return 'aborted' as const;
    ctx.logger.warn({ err: error, intentId }, 'could not wait for a payment workflow to close; ending its live stream');
    throw new TRPCError({ code: 'SERVICE_UNAVAILABLE', message: "The payment's progress could not be read; reconnect", cause: error });
  }
}
