// Rejecting an agent's budget request, with a note the agent reads (it says why, so the agent
// does not ask again the same way). The dialog stays open with the note when the server refuses.
import { TextField } from '@mui/material';
import { useId, useState, type FormEvent } from 'react';
import { FormDialog } from '../../../shared/components/form-dialog';

/** As core's decidePaymentSessionInput allows. */
const NOTE_MAX_LENGTH = 500;

interface Props {
  open: boolean;
  agentName: string;
  busy: boolean;
  onClose: () => void;
  /** Resolves true when the request was rejected. */
  onReject: (note: string) => Promise<boolean>;
}

export function RejectBudgetDialog({ open, agentName, busy, onClose, onReject }: Props) {
  const id = useId();
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);

  const close = () => {
    setNote('');
    setError(null);
    onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (note.trim() === '') {
      setError('Say why, so the agent knows');
      return;
    }
    if (await onReject(note.trim())) close();
  };

  return (
    <FormDialog
      id={`reject-${id}`}
      title={`Reject budget request of ${agentName}`}
      open={open}
      busy={busy}
      submitLabel="Reject request"
      busyLabel="Processing..."
      maxWidth="sm"
      onClose={close}
      onSubmit={(event) => void submit(event)}
    >
      <TextField
        autoFocus
        required
        multiline
        minRows={2}
        label="Note"
        value={note}
        onChange={(event) => {
          setNote(event.target.value);
          setError(null);
        }}
        error={Boolean(error)}
        helperText={error ?? 'The agent reads it with the decision; it is kept in the audit log.'}
        slotProps={{ htmlInput: { maxLength: NOTE_MAX_LENGTH } }}
      />
    </FormDialog>
  );
}
