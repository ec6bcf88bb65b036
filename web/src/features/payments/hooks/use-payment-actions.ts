// The owner's decisions on one payment: approve, reject (with an optional note) and cancel.
// Each confirms or explains itself in a toast with the server's words, and refreshes every
// intents query (this payment, the lists, the approvals badge); the progress stream then
// shows the workflow moving on.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { useTRPC } from '../../../shared/trpc';
import { errorMessage } from '../utils/flow-errors';

export function usePaymentActions(intentId: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.intents.pathKey() });

  const approve = useMutation(
    trpc.intents.approve.mutationOptions({
      onSuccess: () => toast.success('Payment approved'),
      onError: (error) => toast.error(errorMessage(error, 'Failed to approve the payment')),
      onSettled: refresh,
    }),
  );
  const reject = useMutation(
    trpc.intents.reject.mutationOptions({
      onSuccess: () => toast.success('Payment rejected'),
      onError: (error) => toast.error(errorMessage(error, 'Failed to reject the payment')),
      onSettled: refresh,
    }),
  );
  const cancel = useMutation(
    trpc.intents.cancel.mutationOptions({
      onSuccess: () => toast.success('Payment cancelled'),
      onError: (error) => toast.error(errorMessage(error, 'Failed to cancel the payment')),
      onSettled: refresh,
    }),
  );

  return {
    // Each answers whether it worked; the toast has already said why not.
    approve: () => settled(approve.mutateAsync({ intentId })),
    reject: (reason: string) => settled(reject.mutateAsync({ intentId, ...(reason.trim() ? { reason: reason.trim() } : {}) })),
    cancel: () => settled(cancel.mutateAsync({ intentId })),
    busy: approve.isPending || reject.isPending || cancel.isPending,
  };
}

function settled(result: Promise<unknown>): Promise<boolean> {
  return result.then(
    () => true,
    () => false,
  );
}
