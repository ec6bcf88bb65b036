// A new owner API key, shown this once: the server keeps only its hash.
import ContentCopyRounded from '@mui/icons-material/ContentCopyRounded';
import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, IconButton, Stack, Tooltip } from '@mui/material';
import { toast } from 'sonner';
import { copyToClipboard } from '../../../shared/clipboard/copy-to-clipboard';
import type { CreatedOwnerApiKey } from '../api/api-key-types';
import { keyLabel } from '../utils/api-keys';

interface ApiKeySecretDialogProps {
  open: boolean;
  /** Kept after closing while the dialog fades out; forgotten with the next key. */
  created: CreatedOwnerApiKey | null;
  onClose: () => void;
  /** After the closing transition: the page forgets the key. */
  onClosed: () => void;
}

export function ApiKeySecretDialog({ open, created, onClose, onClosed }: ApiKeySecretDialogProps) {
  return (
    // No backdrop or Escape close: the key must not vanish by a stray click.
    <Dialog
      open={open && created !== null}
      fullWidth
      maxWidth="sm"
      aria-labelledby="owner-key-title"
      aria-describedby="owner-key-warning"
      slotProps={{ transition: { onExited: onClosed } }}
    >
      <DialogTitle id="owner-key-title">API key {created ? keyLabel(created) : ''}</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <Alert severity="warning" id="owner-key-warning">
            Copy this key now. You will not see it again.
          </Alert>
          <DialogContentText>
            Send it as <code>Authorization: Bearer &lt;key&gt;</code> to the owner API. Keep it in a secrets manager, never in code.
          </DialogContentText>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <Box
              component="code"
              data-testid="owner-api-key-secret"
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
              {created?.key}
            </Box>
            <Tooltip title="Copy API key">
              <IconButton aria-label="Copy API key" onClick={() => void copyToClipboard(created?.key, 'API key', toast)}>
                <ContentCopyRounded />
              </IconButton>
            </Tooltip>
          </Stack>
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button variant="contained" onClick={onClose}>
          I have saved the key
        </Button>
      </DialogActions>
    </Dialog>
  );
}
