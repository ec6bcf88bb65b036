// The owner's answer to an agent's budget request: grant (for less, or until sooner, with a
// note) or reject with a note. Each confirms or explains itself in a toast with the server's
// words, and refreshes the session lists and the inbox badge; the console's stream tells the
// other open consoles.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { useTRPC } from '../../../shared/trpc';
import { errorMessage } from '../utils/flow-errors';

export interface GrantTerms {
  /** Dollars, only when lower than asked. */
  totalUsd?: string;
  /** ISO date-time, only when sooner than asked. */
  expiresAt?: string;
  note?: string;
  /** Charge every payment of the agent to it, not only those that name it. */
  allPayments?: boolean;
  /** Set the total aside now, out of the agent's balance. */
  reserve?: boolean;
}

export function useSessionDecisions(sessionId: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.paymentSessions.pathKey() });
  const decide = useMutation(trpc.paymentSessions.decide.mutationOptions({ onSettled: refresh }));

  const run = (input: Parameters<typeof decide.mutateAsync>[0], done: string, failed: string) =>
    decide.mutateAsync(input).then(
      () => {
        toast.success(done);
        return true;
      },
      (error: unknown) => {
        toast.error(errorMessage(error, failed));
        return false;
      },
    );

  return {
    // Each answers whether it worked; the toast has already said why not.
    grant: (terms: GrantTerms) => run({ sessionId, approve: true, ...terms }, 'Budget granted', 'Failed to grant the budget'),
    reject: (note: string) => run({ sessionId, approve: false, note }, 'Budget request rejected', 'Failed to reject the budget request'),
    busy: decide.isPending,
  };
}
