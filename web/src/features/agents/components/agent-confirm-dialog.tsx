// A confirmation dialog for the agent's status actions: what will happen, Cancel, and the
// action's button, which shows its busy label and locks the dialog while the request runs.
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack } from '@mui/material';
import { darken } from '@mui/material/styles';
import type { ReactNode } from 'react';

export interface AgentConfirmDialogProps {
  id: string;
  open: boolean;
  title: string;
  confirmLabel: string;
  busyLabel: string;
  color: 'primary' | 'error';
  busy: boolean;
  /** False keeps the action's button disabled (e.g. until the agent's name is typed). */
  canConfirm?: boolean;
  error: string | null;
  onConfirm: () => void;
  onClose: () => void;
  children: ReactNode;
}

export function AgentConfirmDialog({ id, open, title, confirmLabel, busyLabel, color, busy, canConfirm = true, error, onConfirm, onClose, children }: AgentConfirmDialogProps) {
  return (
    <Dialog open={open} onClose={busy ? undefined : onClose} fullWidth maxWidth="sm" aria-labelledby={`${id}-title`}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (canConfirm && !busy) onConfirm();
        }}
      >
        <DialogTitle id={`${id}-title`}>{title}</DialogTitle>
        <DialogContent>
          <Stack spacing={2}>
            {children}
            {error ? <Alert severity="error">{error}</Alert> : null}
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button
            type="submit"
            variant="contained"
            color={color}
            disabled={busy || !canConfirm}
            // The dark theme's error red (#f44336) under white text is below 4.5:1; its darker shade is not.
            sx={(theme) => (color === 'error' && theme.palette.mode === 'dark' ? { bgcolor: 'error.dark', '&:hover': { bgcolor: darken(theme.palette.error.dark, 0.2) } } : {})}
          >
            {busy ? busyLabel : confirmLabel}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
