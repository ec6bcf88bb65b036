// Under the console's top bar while the kill switch holds agents paused: what is paused since
// when, and Resume (agents.resumeAll), which reactivates exactly the agents it paused.
import { Alert, Button } from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { useTRPC } from '../../../shared/trpc';
import { errorMessage } from '../utils/trpc-errors';

export function KillSwitchBanner() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const state = useQuery(trpc.agents.killSwitch.queryOptions());
  const resume = useMutation(
    trpc.agents.resumeAll.mutationOptions({
      onSuccess: ({ resumed }) => toast.success(resumed === 1 ? 'Resumed 1 agent' : `Resumed ${resumed} agents`),
      onError: (error) => toast.error(errorMessage(error, 'Failed to resume the agents')),
      onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.agents.pathKey() }),
    }),
  );

  if (!state.data?.paused) return null;
  const { pausedCount, pausedAt } = state.data;
  return (
    <Alert
      severity="warning"
      role="status"
      data-testid="kill-switch-banner"
      sx={{ borderRadius: 0, borderTop: 1, borderColor: 'warning.main', py: 0.25, alignItems: 'center', '& .MuiAlert-message': { overflowWrap: 'anywhere' } }}
      action={
        <Button color="inherit" variant="outlined" size="small" onClick={() => resume.mutate()} disabled={resume.isPending} sx={{ whiteSpace: 'nowrap' }}>
          {resume.isPending ? 'Resuming...' : 'Resume'}
        </Button>
      }
    >
      <strong>All agents paused.</strong> {pausedCount === 1 ? '1 agent is' : `${pausedCount} agents are`} suspended
      {pausedAt ? ` since ${formatTime(pausedAt)}` : ''}; their payments are refused until you resume.
    </Alert>
  );
}

/** Today: '14:05'; other days: 'Nov 26, 14:05' (local time). */
function formatTime(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const time = date.toLocaleTimeString('en-US', { hour: '2-digit', minute: '2-digit', hour12: false });
  if (date.toDateString() === new Date().toDateString()) return time;
  return `${date.toLocaleDateString('en-US', { month: 'short', day: 'numeric' })}, ${time}`;
}
