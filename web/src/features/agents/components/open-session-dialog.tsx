// The owner opens a payment session for the agent: a total, an optional cap per payment, an
// expiry and an optional scope (sellers, categories, protocols, rails; comma-separated). Each
// field shows the contract's own message (open-session-form.ts); a refusal of the server is
// shown in the dialog, which keeps what was typed.
import { Alert, Stack, TextField } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { FormDialog } from '../../../shared/components/form-dialog';
import { SessionOptionsFields } from '../../../shared/payment-sessions/session-options-fields';
import { useTRPC } from '../../../shared/trpc';
import {
  EMPTY_OPEN_SESSION_FORM,
  localInputIn,
  openSessionInput,
  type OpenSessionField,
  type OpenSessionForm,
  type OpenSessionTextField,
} from '../utils/open-session-form';
import { errorMessage } from '../utils/trpc-errors';

interface Props {
  open: boolean;
  agentId: string;
  agentName: string;
  onClose: () => void;
  onOpened: () => void;
}

const initialForm = (): OpenSessionForm => ({ ...EMPTY_OPEN_SESSION_FORM, expiresAt: localInputIn(7) });

export function OpenSessionDialog({ open, agentId, agentName, onClose, onOpened }: Props) {
  const trpc = useTRPC();
  const openSession = useMutation(trpc.paymentSessions.open.mutationOptions());
  const [form, setForm] = useState<OpenSessionForm>(initialForm);
  const [errors, setErrors] = useState<Partial<Record<OpenSessionField, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);

  const field = (name: OpenSessionTextField) => ({
    value: form[name],
    onChange: (event: { target: { value: string } }) => {
      setForm((current) => ({ ...current, [name]: event.target.value }));
      setErrors((current) => ({ ...current, [name]: undefined }));
    },
    error: Boolean(errors[name]),
  });

  const close = () => {
    setForm(initialForm());
    setErrors({});
    setFailure(null);
    onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const result = openSessionInput(agentId, form);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    try {
      await openSession.mutateAsync(result.input);
      toast.success(`Session opened for ${agentName}`);
      onOpened();
      close();
    } catch (error) {
      setFailure(errorMessage(error, 'Failed to open the session'));
    }
  };

  return (
    <FormDialog
      id="open-session"
      title={`Open a payment session for ${agentName}`}
      open={open}
      busy={openSession.isPending}
      submitLabel="Open session"
      busyLabel="Processing..."
      maxWidth="sm"
      onClose={close}
      onSubmit={(event) => void submit(event)}
    >
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField autoFocus required fullWidth label="Total (USD)" {...field('total')} helperText={errors.total ?? 'What the agent may spend from it in all.'} slotProps={{ htmlInput: { inputMode: 'decimal' } }} />
        <TextField fullWidth label="Per payment (USD)" {...field('perPaymentMax')} helperText={errors.perPaymentMax ?? 'Optional cap on each payment.'} slotProps={{ htmlInput: { inputMode: 'decimal' } }} />
      </Stack>
      <TextField required label="Ends" type="datetime-local" {...field('expiresAt')} helperText={errors.expiresAt ?? 'At most 30 days away.'} slotProps={{ inputLabel: { shrink: true } }} />
      <TextField label="Sellers" {...field('sellers')} helperText={errors.sellers ?? 'Optional: host names or pay-to addresses, comma-separated.'} />
      <TextField label="Categories" {...field('categories')} helperText={errors.categories ?? 'Optional, comma-separated.'} />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField fullWidth label="Protocols" {...field('protocols')} helperText={errors.protocols ?? 'Optional: x402, mpp.'} />
        <TextField fullWidth label="Rails" {...field('rails')} helperText={errors.rails ?? 'Optional, e.g. x402-base.'} />
      </Stack>
      <TextField label="Reason (optional)" multiline minRows={2} {...field('reason')} helperText={errors.reason ?? 'What the session is for; the agent reads it.'} slotProps={{ htmlInput: { maxLength: 500 } }} />
      <SessionOptionsFields value={form} onChange={(change) => setForm((current) => ({ ...current, ...change }))} />
      {failure ? <Alert severity="error">{failure}</Alert> : null}
    </FormDialog>
  );
}
