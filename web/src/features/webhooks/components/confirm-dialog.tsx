// A yes-or-no question before an action that cannot be taken back (delete, rotate).
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { darken, type Theme } from '@mui/material/styles';
import type { ReactNode } from 'react';

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  children: ReactNode;
  /** Controls below the question (a choice the action takes). */
  extra?: ReactNode;
  confirmLabel: string;
  pendingLabel: string;
  pending: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

export function ConfirmDialog({ open, title, children, extra, confirmLabel, pendingLabel, pending, onConfirm, onClose }: ConfirmDialogProps) {
  return (
    <Dialog open={open} onClose={pending ? undefined : onClose} aria-labelledby="webhook-confirm-title" aria-describedby="webhook-confirm-text">
      <DialogTitle id="webhook-confirm-title">{title}</DialogTitle>
      <DialogContent>
        <DialogContentText id="webhook-confirm-text" sx={{ overflowWrap: 'anywhere' }}>
          {children}
        </DialogContentText>
        {extra}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={pending}>
          Cancel
        </Button>
        <Button variant="contained" color="error" onClick={onConfirm} disabled={pending} sx={readableOnDark}>
          {pending ? pendingLabel : confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * The dark theme's error red (#f44336) under white text is below 4.5:1; its darker shade is not.
 */
const readableOnDark = (theme: Theme) =>
  theme.palette.mode === 'dark' ? { bgcolor: theme.palette.error.dark, '&:hover': { bgcolor: darken(theme.palette.error.dark, 0.2) } } : {};
