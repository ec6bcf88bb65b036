// Granting an agent's budget request: the total and the expiry start as asked; the owner may
// lower the total, bring the expiry sooner and add a note. Each field shows the server's own
// message (grant-form.ts); the dialog stays open with what was typed when the server refuses.
import { TextField } from '@mui/material';
import { useId, useState, type FormEvent } from 'react';
import { FormDialog } from '../../../shared/components/form-dialog';
import { SessionOptionsFields } from '../../../shared/payment-sessions/session-options-fields';
import type { PaymentSession } from '../api/payment-types';
import { grantForm, grantInput, type GrantField, type GrantForm, type GrantTextField } from '../utils/grant-form';
import type { GrantTerms } from '../hooks/use-session-decisions';

interface Props {
  open: boolean;
  session: PaymentSession;
  agentName: string;
  busy: boolean;
  onClose: () => void;
  /** Resolves true when the budget was granted. */
  onGrant: (terms: GrantTerms) => Promise<boolean>;
}

export function GrantBudgetDialog({ open, session, agentName, busy, onClose, onGrant }: Props) {
  const id = useId();
  const [form, setForm] = useState<GrantForm>(() => grantForm(session));
  const [errors, setErrors] = useState<Partial<Record<GrantField, string>>>({});

  const set = (field: GrantTextField) => (event: { target: { value: string } }) => {
    setForm((current) => ({ ...current, [field]: event.target.value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const close = () => {
    setForm(grantForm(session));
    setErrors({});
    onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = grantInput(session.id, session, form);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    if (await onGrant(result.input)) close();
  };

  return (
    <FormDialog
      id={`grant-${id}`}
      title={`Approve budget for ${agentName}`}
      open={open}
      busy={busy}
      submitLabel="Approve budget"
      busyLabel="Processing..."
      maxWidth="sm"
      onClose={close}
      onSubmit={(event) => void submit(event)}
    >
      <TextField
        autoFocus
        label="Total (USD)"
        value={form.total}
        onChange={set('total')}
        error={Boolean(errors.total)}
        helperText={errors.total ?? 'Lower it to grant less than asked.'}
        slotProps={{ htmlInput: { inputMode: 'decimal' } }}
      />
      <TextField
        label="Ends"
        type="datetime-local"
        value={form.expiresAt}
        onChange={set('expiresAt')}
        error={Boolean(errors.expiresAt)}
        helperText={errors.expiresAt ?? 'Bring it sooner to end the session earlier.'}
        slotProps={{ inputLabel: { shrink: true } }}
      />
      <TextField
        label="Note (optional)"
        multiline
        minRows={2}
        value={form.note}
        onChange={set('note')}
        error={Boolean(errors.note)}
        helperText={errors.note ?? 'The agent reads it with the decision.'}
        slotProps={{ htmlInput: { maxLength: 500 } }}
      />
      <SessionOptionsFields value={form} onChange={(change) => setForm((current) => ({ ...current, ...change }))} />
    </FormDialog>
  );
}
