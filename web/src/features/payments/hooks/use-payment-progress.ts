// The payment's live flow: realtime.intentProgress pushes the workflow's step records on
// subscribe and again whenever the intent, its rail operation or its ledger entries change
// (never polled). Each message also refreshes the payment's detail, so the tables beside the
// drawing follow the same moves. This is the only stream a page opens itself; everything
// else live comes from the console layout's one stream.
//
// The link reconnects a dropped connection by itself; a stream the server ended with an error
// (its progress could not be read) is opened again here, after a pause that grows each time.
import { useQueryClient } from '@tanstack/react-query';
import { useSubscription } from '@trpc/tanstack-react-query';
import { useEffect, useRef } from 'react';
import { useTRPC } from '../../../shared/trpc';

export type ProgressConnection = 'connecting' | 'live' | 'error' | 'idle';

const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 30_000;

export function usePaymentProgress(intentId: string, enabled: boolean) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const retries = useRef(0);
  const subscription = useSubscription(
    trpc.realtime.intentProgress.subscriptionOptions(
      { intentId },
      {
        enabled,
        onData: () => {
          retries.current = 0;
          void queryClient.invalidateQueries({ queryKey: trpc.intents.detail.queryKey({ intentId }) });
        },
        onError: (error) => console.error('Payment progress stream failed', error),
      },
    ),
  );

  const { status, reset } = subscription;
  useEffect(() => {
    if (status !== 'error') return;
    const wait = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** retries.current);
    retries.current += 1;
    const timer = window.setTimeout(reset, wait);
    return () => window.clearTimeout(timer);
  }, [status, reset]);

  const connection: ProgressConnection = status === 'pending' ? 'live' : status === 'connecting' ? 'connecting' : status === 'error' ? 'error' : 'idle';
  return { progress: subscription.data ?? null, connection };
}
