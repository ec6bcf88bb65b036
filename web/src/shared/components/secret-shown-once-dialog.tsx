// A secret the server will not answer again (an API key, a webhook signing secret), shown this
// once with a warning, what it is for and a copy button. There is no backdrop or Escape close:
// the secret must not vanish by a stray click, so the confirm button is the only way out.
import ContentCopyRounded from '@mui/icons-material/ContentCopyRounded';
import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, IconButton, Stack, Tooltip } from '@mui/material';
import type { ReactNode } from 'react';
import { toast } from 'sonner';
import { copyToClipboard } from '../clipboard/copy-to-clipboard';

export interface SecretShownOnceDialogProps {
  open: boolean;
  /** Prefix of the title's and the warning's ids, which name and describe the dialog. */
  idPrefix: string;
  title: ReactNode;
  /** 'Copy this key now. You will not see it again.' */
  warning: string;
  /** What the secret is for and how to keep it. */
  explanation: ReactNode;
  /** For an explanation that quotes something long without spaces, such as a URL. */
  wrapExplanationAnywhere?: boolean;
  secret: string | undefined;
  /** The secret's test id, for the journeys that read it. */
  secretTestId: string;
  /** The copy button's name and tooltip: 'Copy API key'. */
  copyLabel: string;
  /** The secret in the copy toasts: 'API key copied to clipboard'. */
  secretName: string;
  /** 'I have saved the key'. */
  confirmLabel: string;
  onClose: () => void;
  /** After the closing transition, so the caller can forget the secret once it is out of sight. */
  onClosed?: () => void;
}

export function SecretShownOnceDialog({
  open,
  idPrefix,
  title,
  warning,
  explanation,
  wrapExplanationAnywhere = false,
  secret,
  secretTestId,
  copyLabel,
  secretName,
  confirmLabel,
  onClose,
  onClosed,
}: SecretShownOnceDialogProps) {
  const titleId = `${idPrefix}-title`;
  const warningId = `${idPrefix}-warning`;
  return (
    <Dialog open={open} fullWidth maxWidth="sm" aria-labelledby={titleId} aria-describedby={warningId} slotProps={{ transition: { onExited: onClosed } }}>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <Alert severity="warning" id={warningId}>
            {warning}
          </Alert>
          <DialogContentText sx={wrapExplanationAnywhere ? { overflowWrap: 'anywhere' } : undefined}>{explanation}</DialogContentText>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <Box
              component="code"
              data-testid={secretTestId}
              sx={{
                flex: 1,
                minWidth: 0,
                p: 1.5,
                borderRadius: 1,
                border: 1,
                borderColor: 'divider',
                bgcolor: 'action.hover',
                fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace',
                fontSize: 14,
                wordBreak: 'break-all',
              }}
            >
              {secret}
            </Box>
            <Tooltip title={copyLabel}>
              <IconButton aria-label={copyLabel} onClick={() => void copyToClipboard(secret, secretName, toast)}>
                <ContentCopyRounded />
              </IconButton>
            </Tooltip>
          </Stack>
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button variant="contained" onClick={onClose}>
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
