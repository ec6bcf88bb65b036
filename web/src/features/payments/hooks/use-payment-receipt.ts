// A settled payment's signed receipt (intents.receipt). The same JWS on every read, so it is
// asked for once; mount it only for a settled payment (before that the server answers CONFLICT).
import { useQuery } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '@purser/server';
import { useTRPC } from '../../../shared/trpc';

export type PaymentReceipt = inferRouterOutputs<AppRouter>['intents']['receipt'];

export function usePaymentReceipt(intentId: string) {
  const trpc = useTRPC();
  return useQuery(trpc.intents.receipt.queryOptions({ intentId }, { staleTime: Infinity }));
}
