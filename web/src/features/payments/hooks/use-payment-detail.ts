// One payment in full (intents.detail): the intent, its agent, rail operation, events, ledger
// entries, webhook deliveries, audit entries and workflow. Kept fresh by the progress stream
// (use-payment-progress.ts), which invalidates it whenever the payment moves.
import { useQuery } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '@purser/server';
import { useTRPC } from '../../../shared/trpc';
import { isNotFoundError } from '../utils/flow-errors';

type Outputs = inferRouterOutputs<AppRouter>;

export type PaymentDetail = Outputs['intents']['detail'];
export type PaymentProgress = Outputs['intents']['progress'];

export function usePaymentDetail(intentId: string) {
  const trpc = useTRPC();
  return useQuery(
    trpc.intents.detail.queryOptions(
      { intentId },
      {
        // Not found is an answer, not a hiccup: asking again would only delay the card.
        retry: (failures, error) => !isNotFoundError(error) && failures < 2,
      },
    ),
  );
}
