// The agent's status and what changes it: Suspend (its API calls are refused and the x402
// authorisations it signed but no seller redeemed are cancelled on chain), Reactivate, and
// Delete, which cannot be undone and asks for the agent's name. Each asks first.
import { Button, DialogContentText, Stack, TextField, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { SectionCard } from '../../../shared/components/section-card';
import { useTRPC } from '../../../shared/trpc';
import type { AgentDetails } from '../api/agent-types';
import { useRefreshAgent } from '../hooks/use-refresh-agent';
import { errorMessage } from '../utils/trpc-errors';
import { AgentConfirmDialog } from './agent-confirm-dialog';

type Action = 'suspend' | 'reactivate' | 'delete';

const STATUS_TEXT = {
  active: 'Active: the agent can call the API and pay within its spending rules.',
  suspended: 'Suspended: every API call of the agent is refused until you reactivate it.',
  deleted: 'Deleted.',
} as const;

export function AgentStatusCard({ agent }: { agent: AgentDetails }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const refresh = useRefreshAgent(agent.id);
  const [open, setOpen] = useState<Action | null>(null);
  const [typedName, setTypedName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const suspend = useMutation(trpc.agents.suspend.mutationOptions());
  const reactivate = useMutation(trpc.agents.reactivate.mutationOptions());
  const remove = useMutation(trpc.agents.delete.mutationOptions());
  const busy = suspend.isPending || reactivate.isPending || remove.isPending;

  const show = (action: Action) => {
    setError(null);
    setTypedName('');
    setOpen(action);
  };
  const close = () => setOpen(null);

  const run = async (action: Action) => {
    setError(null);
    try {
      if (action === 'suspend') {
        await suspend.mutateAsync({ agent_id: agent.id });
        toast.success(`${agent.name} is suspended`);
      } else if (action === 'reactivate') {
        await reactivate.mutateAsync({ agent_id: agent.id });
        toast.success(`${agent.name} is active again`);
      } else {
        await remove.mutateAsync({ agent_id: agent.id });
        toast.success(`Agent "${agent.name}" deleted`);
        setOpen(null);
        // The agent is gone: its reads would only answer 'not found' now.
        queryClient.removeQueries({ queryKey: trpc.agents.get.queryKey({ agent_id: agent.id }) });
        void queryClient.invalidateQueries({ queryKey: trpc.agents.list.queryKey() });
        await navigate('/dashboard', { replace: true });
        return;
      }
      setOpen(null);
      await refresh();
    } catch (failure) {
      setError(errorMessage(failure, `Failed to ${action} the agent`));
    }
  };

  return (
    <SectionCard title="Status">
      <Typography sx={{ mb: 2 }}>{STATUS_TEXT[agent.status]}</Typography>
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
        {agent.status === 'active' ? (
          <Button variant="outlined" onClick={() => show('suspend')}>
            Suspend agent
          </Button>
        ) : (
          <Button variant="contained" onClick={() => show('reactivate')}>
            Reactivate agent
          </Button>
        )}
        <Button variant="outlined" color="error" onClick={() => show('delete')}>
          Delete agent
        </Button>
      </Stack>

      <AgentConfirmDialog
        id="suspend-agent"
        open={open === 'suspend'}
        title={`Suspend ${agent.name}?`}
        confirmLabel="Suspend"
        busyLabel="Suspending..."
        color="primary"
        busy={busy}
        error={error}
        onConfirm={() => void run('suspend')}
        onClose={close}
      >
        <DialogContentText>
          Every API call of the agent will be refused until you reactivate it, and its credential reads as suspended. Outstanding x402 authorisations it
          signed that no seller has redeemed yet are cancelled on chain.
        </DialogContentText>
      </AgentConfirmDialog>

      <AgentConfirmDialog
        id="reactivate-agent"
        open={open === 'reactivate'}
        title={`Reactivate ${agent.name}?`}
        confirmLabel="Reactivate"
        busyLabel="Reactivating..."
        color="primary"
        busy={busy}
        error={error}
        onConfirm={() => void run('reactivate')}
        onClose={close}
      >
        <DialogContentText>
          The agent can call the API and pay again within its spending rules, and its credential verifies again. Authorisations cancelled while it was
          suspended stay cancelled.
        </DialogContentText>
      </AgentConfirmDialog>

      <AgentConfirmDialog
        id="delete-agent"
        open={open === 'delete'}
        title={`Delete ${agent.name}?`}
        confirmLabel="Delete agent"
        busyLabel="Deleting..."
        color="error"
        busy={busy}
        canConfirm={typedName === agent.name}
        error={error}
        onConfirm={() => void run('delete')}
        onClose={close}
      >
        <DialogContentText>
          This cannot be undone. The agent&apos;s API keys stop working, its DID is deactivated, its credential is revoked and outstanding x402
          authorisations are cancelled. Its transactions and audit entries are kept.
        </DialogContentText>
        <TextField
          id="delete-agent-name"
          label={`Type ${agent.name} to confirm`}
          value={typedName}
          onChange={(event) => setTypedName(event.target.value)}
          disabled={busy}
          autoFocus
          fullWidth
          slotProps={{ htmlInput: { autoComplete: 'off', spellCheck: false } }}
        />
      </AgentConfirmDialog>
    </SectionCard>
  );
}
