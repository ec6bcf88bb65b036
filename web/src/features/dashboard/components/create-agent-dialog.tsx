// 'Create New AI Agent': name, description and spending limits (100 / 1000 dollars by
// default). The new agent's API key comes back this once and is handed to `onCreated`.
import { Stack, TextField } from '@mui/material';
import type { CreatedAgent } from '../api/dashboard-types';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { useTRPC } from '../../../shared/trpc';
import { FormDialog } from '../../../shared/components/form-dialog';
import { useReloadDashboard } from '../hooks/use-dashboard-data';
import { errorMessage } from '../utils/messages';

const DEFAULTS = { name: '', description: '', maxTransactionAmount: '100', maxDailyLimit: '1000' };

export function CreateAgentDialog({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose: () => void;
  onCreated: (result: CreatedAgent) => void;
}) {
  const trpc = useTRPC();
  const reload = useReloadDashboard();
  const create = useMutation(trpc.agents.create.mutationOptions());
  const [form, setForm] = useState(DEFAULTS);
  const busy = create.isPending;
  const field = (name: keyof typeof DEFAULTS) => ({
    value: form[name],
    disabled: busy,
    onChange: (event: { target: { value: string } }) => setForm((current) => ({ ...current, [name]: event.target.value })),
  });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const name = form.name.trim();
    if (!name) {
      toast.error('Please enter an agent name');
      return;
    }
    try {
      const result = await create.mutateAsync({
        name,
        description: form.description.trim(),
        // A cleared limit takes the server's default; anything else is the server's to judge.
        max_transaction_amount: limitValue(form.maxTransactionAmount),
        max_daily_limit: limitValue(form.maxDailyLimit),
      });
      toast.success(`Agent "${result.agent.name}" created with DID!`);
      onClose();
      setForm(DEFAULTS);
      onCreated(result);
      void reload();
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to create agent'));
    }
  };

  return (
    <FormDialog id="create-agent" title="Create New AI Agent" open={open} busy={busy} submitLabel="Create Agent" busyLabel="Creating..." maxWidth="sm" onClose={onClose} onSubmit={submit}>
      <TextField id="create-agent-name" label="Agent Name" fullWidth autoFocus {...field('name')} />
      <TextField id="create-agent-description" label="Description" fullWidth multiline minRows={2} {...field('description')} />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField
          id="create-agent-max-transaction"
          label="Max Transaction Amount ($)"
          type="number"
          fullWidth
          slotProps={{ htmlInput: { min: 0, step: 0.01 } }}
          {...field('maxTransactionAmount')}
        />
        <TextField
          id="create-agent-max-daily"
          label="Max Daily Limit ($)"
          type="number"
          fullWidth
          slotProps={{ htmlInput: { min: 0, step: 0.01 } }}
          {...field('maxDailyLimit')}
        />
      </Stack>
    </FormDialog>
  );
}

function limitValue(value: string): number | undefined {
  return value.trim() ? Number(value) : undefined;
}
