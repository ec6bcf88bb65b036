// 'Fund Agent': moves money from the owner's wallet to one agent's wallet. Opened from an
// agent card it starts with that agent chosen; opened from Send, with none. The page mounts
// it afresh for every opening, so each starts from those defaults (and a new idempotency key:
// a retry after a lost response moves the money once).
import { MenuItem, TextField } from '@mui/material';
import type { DashboardAgent } from '../api/dashboard-types';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { useTRPC } from '../../../shared/trpc';
import { useReloadDashboard } from '../hooks/use-dashboard-data';
import { useIdempotencyKeys } from '../hooks/use-idempotency-keys';
import { errorMessage, positiveAmount } from '../utils/messages';
import { AmountField } from './amount-field';
import { FormDialog } from '../../../shared/components/form-dialog';
import { CurrencyField, type Currency } from './currency-field';

export function FundAgentDialog({
  open,
  agents,
  initialAgentId,
  onClose,
}: {
  open: boolean;
  agents: readonly DashboardAgent[];
  initialAgentId: string | null;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const reload = useReloadDashboard();
  const fund = useMutation(trpc.wallet.fundAgent.mutationOptions());
  const [agentId, setAgentId] = useState(initialAgentId ?? '');
  const [amount, setAmount] = useState('');
  const [currency, setCurrency] = useState<Currency>('USDC');
  const keys = useIdempotencyKeys(open);
  const busy = fund.isPending;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const value = positiveAmount(amount);
    if (!agentId || value === null) {
      toast.error('Please select an agent and enter a valid amount');
      return;
    }
    const agentName = agents.find((agent) => agent.id === agentId)?.name ?? 'agent';
    const request = { agent_id: agentId, amount: value, currency };
    try {
      await fund.mutateAsync({ ...request, idempotency_key: keys.keyFor(request) });
      keys.succeeded();
      toast.success(`Successfully sent ${value} ${currency} to ${agentName}`);
      onClose();
      setAgentId('');
      setAmount('');
      void reload();
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to fund agent'));
    }
  };

  return (
    <FormDialog id="fund-agent" title="Fund Agent" open={open} busy={busy} submitLabel="Send" busyLabel="Processing..." onClose={onClose} onSubmit={submit}>
      <TextField
        select
        fullWidth
        id="fund-agent-agent"
        label="Agent"
        value={agentId}
        disabled={busy}
        onChange={(event) => setAgentId(event.target.value)}
      >
        {agents.length === 0 && (
          <MenuItem value="" disabled>
            Create an agent first
          </MenuItem>
        )}
        {agents.map((agent) => (
          <MenuItem key={agent.id} value={agent.id}>
            {agent.name}
          </MenuItem>
        ))}
      </TextField>
      <AmountField id="fund-agent-amount" value={amount} onChange={setAmount} disabled={busy} autoFocus={Boolean(initialAgentId)} />
      <CurrencyField id="fund-agent-currency" value={currency} onChange={setCurrency} disabled={busy} />
    </FormDialog>
  );
}
