// Rotating an agent's API key: confirm, then show the new key this one time. The old key
// stops working at once (services/agents/rotate-agent-api-key.ts).
import KeyRounded from '@mui/icons-material/KeyRounded';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, Typography } from '@mui/material';
import { darken } from '@mui/material/styles';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { SectionCard } from '../../../shared/components/section-card';
import { useTRPC } from '../../../shared/trpc';
import { errorMessage } from '../utils/trpc-errors';
import { CopyableValue } from './mcp-setup-cards';

export function RotateApiKeyCard({ agentId, agentName }: { agentId: string; agentName: string }) {
  const trpc = useTRPC();
  const [confirming, setConfirming] = useState(false);
  // The new key lives only in this state: closing the dialog forgets it.
  const [newKey, setNewKey] = useState<string | null>(null);
  const rotate = useMutation(
    trpc.agents.rotateApiKey.mutationOptions({
      onSuccess: (result) => {
        setConfirming(false);
        setNewKey(result.api_key.key);
      },
      onError: (error) => toast.error(errorMessage(error, 'Failed to rotate API key')),
    }),
  );

  return (
    <SectionCard title="API Key">
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        The agent authenticates with its API key as a bearer token. If the key leaked or you lost it, rotate it: the current key stops working immediately
        and a new one is shown once.
      </Typography>
      <Button variant="outlined" startIcon={<KeyRounded />} onClick={() => setConfirming(true)}>
        Rotate API key
      </Button>

      <Dialog open={confirming} onClose={() => (rotate.isPending ? undefined : setConfirming(false))} aria-labelledby="rotate-key-title">
        <DialogTitle id="rotate-key-title">Rotate API key?</DialogTitle>
        <DialogContent>
          <DialogContentText>
            The current API key of {agentName} stops working immediately. Every workflow that uses it must be updated with the new key.
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirming(false)} disabled={rotate.isPending}>
            Cancel
          </Button>
          <Button
            variant="contained"
            color="error"
            onClick={() => rotate.mutate({ agent_id: agentId })}
            disabled={rotate.isPending}
            // The dark theme's error red (#f44336) under white text is below 4.5:1; its darker shade is not.
            sx={(theme) => (theme.palette.mode === 'dark' ? { bgcolor: 'error.dark', '&:hover': { bgcolor: darken(theme.palette.error.dark, 0.2) } } : {})}
          >
            {rotate.isPending ? 'Rotating...' : 'Rotate key'}
          </Button>
        </DialogActions>
      </Dialog>

      {/* No backdrop or Escape close: the key must not vanish by a stray click. */}
      <Dialog open={newKey !== null} aria-labelledby="new-key-title" fullWidth maxWidth="sm">
        <DialogTitle id="new-key-title">New API key</DialogTitle>
        <DialogContent>
          <Alert severity="warning" sx={{ mb: 2 }}>
            Copy this key now. It will not be shown again.
          </Alert>
          {newKey ? <CopyableValue value={newKey} thing="API key" /> : null}
        </DialogContent>
        <DialogActions>
          <Button variant="contained" onClick={() => setNewKey(null)}>
            Done
          </Button>
        </DialogActions>
      </Dialog>
    </SectionCard>
  );
}
