// 'New agent' on the consent page: an agent made on the spot (agents.create with a name; the
// server's default limits of 100 and 1000 dollars apply and can be changed on its page), then
// chosen for the connection. Its API key is not shown: the connection does not need one, and a
// key for scripts can be issued later from the agent's page (Rotate API key).
import { TextField, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { FormDialog } from '../../../shared/components/form-dialog';
import { useTRPC } from '../../../shared/trpc';
import { serverMessage } from '../utils/trpc-errors';

export function NewAgentDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (agentId: string) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const create = useMutation(trpc.agents.create.mutationOptions());
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const busy = create.isPending;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (!name.trim()) {
      setError('Please enter an agent name');
      return;
    }
    try {
      const result = await create.mutateAsync({ name: name.trim() });
      await queryClient.invalidateQueries({ queryKey: trpc.agents.list.queryKey() });
      toast.success(`Agent "${result.agent.name}" created`);
      setName('');
      setError(null);
      onCreated(result.agent.id);
    } catch (failure) {
      setError(serverMessage(failure, 'Failed to create agent'));
    }
  };

  return (
    <FormDialog id="new-agent" title="New agent" open={open} busy={busy} submitLabel="Create Agent" busyLabel="Creating..." onClose={onClose} onSubmit={(event) => void submit(event)}>
      <TextField
        id="new-agent-name"
        label="Agent Name"
        value={name}
        onChange={(event) => {
          setName(event.target.value);
          setError(null);
        }}
        disabled={busy}
        error={Boolean(error)}
        helperText={error ?? undefined}
        fullWidth
        autoFocus
      />
      <Typography variant="body2" color="text.secondary">
        It starts with the default limits ($100 per payment, $1,000 a day) and an empty wallet: change them and fund it from the dashboard.
      </Typography>
    </FormDialog>
  );
}
