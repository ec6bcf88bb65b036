// "Pause all agents": one confirmation naming what happens (how many active agents are
// suspended, their outstanding x402 authorisations cancelled), then agents.pauseAll.
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { toast } from 'sonner';
import { useTRPC } from '../../../shared/trpc';
import { errorMessage } from '../utils/trpc-errors';

const agentsText = (count: number) => `${count} active ${count === 1 ? 'agent' : 'agents'}`;

export function KillSwitchDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const titleId = useId();
  const agents = useQuery(trpc.agents.list.queryOptions(undefined, { enabled: open }));
  const active = agents.data?.filter((agent) => agent.status === 'active').length ?? null;

  const pause = useMutation(
    trpc.agents.pauseAll.mutationOptions({
      onSuccess: ({ paused }) => {
        toast.success(paused === 1 ? 'Paused 1 agent' : `Paused ${paused} agents`);
        onClose();
      },
      onError: (error) => toast.error(errorMessage(error, 'Failed to pause the agents')),
      onSettled: () =>
        Promise.all([
          queryClient.invalidateQueries({ queryKey: trpc.agents.pathKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.intents.pathKey() }),
        ]),
    }),
  );

  return (
    <Dialog open={open} onClose={pause.isPending ? undefined : onClose} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <DialogTitle id={titleId}>Pause all agents?</DialogTitle>
      <DialogContent>
        <DialogContentText data-testid="kill-switch-summary">
          {active === null
            ? 'Every active agent will be suspended.'
            : active === 0
              ? 'You have no active agents to pause.'
              : `${agentsText(active)} will be suspended.`}{' '}
          {active === 0 ? null : 'Their payments are refused and their outstanding x402 authorisations are cancelled until you resume them.'}
        </DialogContentText>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} disabled={pause.isPending} color="inherit">
          Cancel
        </Button>
        <Button variant="contained" color="error" onClick={() => pause.mutate()} disabled={pause.isPending || active === 0 || agents.isPending}>
          {pause.isPending ? 'Pausing...' : active ? `Pause ${agentsText(active)}` : 'Pause all agents'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
