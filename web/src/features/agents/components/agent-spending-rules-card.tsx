// Editing an agent's spending rules: max per transaction, daily limit (rolling 24 hours) and
// the approval threshold (empty: no payment waits for the owner). Each field shows the
// message the server's schema gives; saving re-issues the agent's credential, which states them.
import { Alert, Box, Button, InputAdornment, Stack, TextField } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { SectionCard } from '../../../shared/components/section-card';
import { useTRPC } from '../../../shared/trpc';
import { useRefreshAgent } from '../hooks/use-refresh-agent';
import {
  approvalThresholdHint,
  fieldOfMessage,
  spendingRulesForm,
  spendingRulesInput,
  type SpendingRulesField,
  type SpendingRulesForm,
  type SpendingRulesValues,
} from '../utils/spending-rules-form';
import { errorMessage } from '../utils/trpc-errors';

const FIELDS: { name: SpendingRulesField; label: string; help: string }[] = [
  { name: 'maxTransactionAmount', label: 'Max per transaction', help: 'A single payment above this is refused.' },
  { name: 'maxDailyLimit', label: 'Daily limit', help: 'Payments in any 24 hours add up to at most this; 0 freezes spending.' },
  { name: 'approvalThreshold', label: 'Approval threshold', help: 'Payments above this wait for your approval. Leave empty for never.' },
];

export function AgentSpendingRulesCard({ agentId, rules }: { agentId: string; rules: SpendingRulesValues | null }) {
  const trpc = useTRPC();
  const refresh = useRefreshAgent(agentId);
  const update = useMutation(trpc.agents.updateSpendingRules.mutationOptions());
  const saved = spendingRulesForm(rules);
  const [form, setForm] = useState<SpendingRulesForm>(saved);
  const [errors, setErrors] = useState<Partial<Record<SpendingRulesField, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const busy = update.isPending;
  const changed = (Object.keys(saved) as SpendingRulesField[]).some((field) => saved[field] !== form[field]);
  const hint = approvalThresholdHint(form);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    const checked = spendingRulesInput(agentId, form);
    if (!checked.ok) {
      setErrors(checked.errors);
      const first = FIELDS.find((field) => checked.errors[field.name]);
      if (first) document.getElementById(`spending-rules-${first.name}`)?.focus();
      return;
    }
    setErrors({});
    try {
      await update.mutateAsync(checked.input);
      toast.success('Spending rules saved');
      await refresh();
    } catch (error) {
      const message = errorMessage(error, 'Failed to save the spending rules');
      const field = fieldOfMessage(message);
      if (field) setErrors({ [field]: message });
      else setFormError(message);
    }
  };

  return (
    <SectionCard title="Spending rules" fill>
      <Box component="form" noValidate onSubmit={submit} aria-label="Spending rules">
        <Stack spacing={2.5} sx={{ pt: 1 }}>
          {FIELDS.map(({ name, label, help }) => {
            const error = errors[name];
            const helper = error ?? (name === 'approvalThreshold' && hint ? hint : help);
            return (
              <TextField
                key={name}
                id={`spending-rules-${name}`}
                label={label}
                value={form[name]}
                disabled={busy}
                error={Boolean(error)}
                helperText={helper}
                placeholder={name === 'approvalThreshold' ? 'Never' : undefined}
                onChange={(event) => {
                  const value = event.target.value;
                  setForm((current) => ({ ...current, [name]: value }));
                  if (errors[name]) setErrors((current) => ({ ...current, [name]: undefined }));
                }}
                slotProps={{
                  input: { startAdornment: <InputAdornment position="start">$</InputAdornment> },
                  htmlInput: { inputMode: 'decimal', autoComplete: 'off' },
                }}
                fullWidth
              />
            );
          })}
          {formError ? <Alert severity="error">{formError}</Alert> : null}
          <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end', alignItems: 'center' }}>
            <Button
              disabled={!changed || busy}
              onClick={() => {
                setForm(saved);
                setErrors({});
                setFormError(null);
              }}
            >
              Reset
            </Button>
            <Button type="submit" variant="contained" disabled={!changed || busy}>
              {busy ? 'Saving...' : 'Save spending rules'}
            </Button>
          </Stack>
        </Stack>
      </Box>
    </SectionCard>
  );
}
