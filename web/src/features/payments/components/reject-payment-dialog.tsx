// Rejecting a payment that waits for approval, with an optional note for the audit log. The
// dialog stays open (with what was typed) when the server refuses; the toast says why.
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, TextField } from '@mui/material';
import { useId, useState, type FormEvent } from 'react';

/** As core's decideIntentInput allows. */
const NOTE_MAX_LENGTH = 500;

interface Props {
  open: boolean;
  /** What is being rejected, in a sentence: '$12.50 USDC to api.weather.test by Research bot'. */
  summary: string;
  busy: boolean;
  onClose: () => void;
  /** Resolves true when the payment was rejected. */
  onReject: (note: string) => Promise<boolean>;
}

export function RejectPaymentDialog({ open, summary, busy, onClose, onReject }: Props) {
  const [note, setNote] = useState('');
  const titleId = useId();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (await onReject(note)) {
      setNote('');
      onClose();
    }
  };

  return (
    <Dialog open={open} onClose={busy ? undefined : onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <DialogTitle id={titleId}>Reject payment</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>
            {summary}. The agent&apos;s call answers refused and no money moves.
          </DialogContentText>
          <TextField
            autoFocus
            fullWidth
            multiline
            minRows={2}
            label="Note (optional)"
            helperText="Kept with the decision in the audit log."
            value={note}
            onChange={(event) => setNote(event.target.value)}
            slotProps={{ htmlInput: { maxLength: NOTE_MAX_LENGTH } }}
          />
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose} disabled={busy} color="inherit">
            Cancel
          </Button>
          <Button type="submit" variant="contained" color="error" disabled={busy}>
            {busy ? 'Rejecting...' : 'Reject payment'}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
