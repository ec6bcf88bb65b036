// The new agent's API key, shown this once right after Create Agent: the server keeps only
// its hash, so closing this dialog is the last chance to copy it.
import ContentCopyRounded from '@mui/icons-material/ContentCopyRounded';
import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, IconButton, Stack, Tooltip } from '@mui/material';
import { copyToClipboard } from '../utils/messages';

export interface CreatedKey {
  agentName: string;
  key: string;
}

export function ApiKeyDialog({ created, onClose }: { created: CreatedKey | null; onClose: () => void }) {
  return (
    // No backdrop or Escape close: the key must not vanish by a stray click.
    <Dialog open={created !== null} fullWidth maxWidth="sm" aria-labelledby="api-key-title" aria-describedby="api-key-warning">
      <DialogTitle id="api-key-title">API key for {created?.agentName}</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <Alert severity="warning" id="api-key-warning">
            Copy this API key now. It will not be shown again.
          </Alert>
          <DialogContentText>The agent uses this key to call the API. Store it somewhere safe, such as a secrets manager.</DialogContentText>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <Box
              component="code"
              data-testid="api-key"
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
              <IconButton aria-label="Copy API key" onClick={() => void copyToClipboard(created?.key, 'API key')}>
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
