// The shell the dashboard's three dialogs and the consent page's 'New agent' share: a form in a
// dialog, Cancel, and a submit button that shows its busy label and locks the dialog while the
// request runs.
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, type Breakpoint } from '@mui/material';
import type { FormEvent, ReactNode } from 'react';

export interface FormDialogProps {
  id: string;
  title: string;
  open: boolean;
  busy: boolean;
  submitLabel: string;
  busyLabel: string;
  maxWidth?: Breakpoint;
  onClose: () => void;
  onSubmit: (event: FormEvent) => void;
  children: ReactNode;
}

export function FormDialog({ id, title, open, busy, submitLabel, busyLabel, maxWidth = 'xs', onClose, onSubmit, children }: FormDialogProps) {
  return (
    <Dialog open={open} onClose={busy ? undefined : onClose} fullWidth maxWidth={maxWidth} aria-labelledby={`${id}-title`}>
      <form onSubmit={onSubmit} noValidate>
        <DialogTitle id={`${id}-title`}>{title}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {children}
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={busy}>
            {busy ? busyLabel : submitLabel}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
