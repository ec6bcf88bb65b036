// An endpoint's signing secret, shown this once after the endpoint is created or its secret
// rotated: the server keeps it encrypted and never answers it again.
import ContentCopyRounded from '@mui/icons-material/ContentCopyRounded';
import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, IconButton, Stack, Tooltip } from '@mui/material';
import { toast } from 'sonner';
import { copyToClipboard } from '../../../shared/clipboard/copy-to-clipboard';

export interface ShownSecret {
  url: string;
  secret: string;
  /** After a rotation rather than a creation. */
  rotated: boolean;
}

interface SigningSecretDialogProps {
  open: boolean;
  /** Kept after closing while the dialog fades out; forgotten when it has. */
  shown: ShownSecret | null;
  onClose: () => void;
  /** After the closing transition: the page forgets the secret. */
  onClosed: () => void;
}

export function SigningSecretDialog({ open, shown, onClose, onClosed }: SigningSecretDialogProps) {
  return (
    // No backdrop or Escape close: the secret must not vanish by a stray click.
    <Dialog
      open={open && shown !== null}
      fullWidth
      maxWidth="sm"
      aria-labelledby="webhook-secret-title"
      aria-describedby="webhook-secret-warning"
      slotProps={{ transition: { onExited: onClosed } }}
    >
      <DialogTitle id="webhook-secret-title">{shown?.rotated ? 'New signing secret' : 'Signing secret'}</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <Alert severity="warning" id="webhook-secret-warning">
            Copy this secret now. You will not see it again.
          </Alert>
          <DialogContentText sx={{ overflowWrap: 'anywhere' }}>
            Deliveries to {shown?.url} carry a <code>webhook-signature</code> header made with this secret (Standard Webhooks). Verify it before
            trusting a delivery.
            {shown?.rotated ? ' The previous secret no longer signs new attempts.' : ''}
          </DialogContentText>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <Box
              component="code"
              data-testid="webhook-secret"
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
              {shown?.secret}
            </Box>
            <Tooltip title="Copy signing secret">
              <IconButton aria-label="Copy signing secret" onClick={() => void copyToClipboard(shown?.secret, 'Signing secret', toast)}>
                <ContentCopyRounded />
              </IconButton>
            </Tooltip>
          </Stack>
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button variant="contained" onClick={onClose}>
          I have saved the secret
        </Button>
      </DialogActions>
    </Dialog>
  );
}
