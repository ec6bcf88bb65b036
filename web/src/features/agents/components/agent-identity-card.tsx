// How the agent proves who it is to the sellers it calls (agents.identity, docs/identity.md):
// the key that signs its outgoing HTTP requests and the public directory sellers check it
// against, the last request it signed, which requests are signed, and the key's rotation (the
// old key stays published for the overlap) or revocation (the old key leaves at once).
import { Alert, Box, Button, DialogContentText, Link, MenuItem, Skeleton, Stack, TextField, Typography } from '@mui/material';
import { REQUEST_SIGNING_LABELS, REQUEST_SIGNING_MODES, SIGNING_KEY_ROTATION_OVERLAP_SECONDS, type AgentIdentityView, type RequestSigningMode } from '@purser/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { toast } from 'sonner';
import { RetryAlert } from '../../../shared/components/retry-alert';
import { SectionCard } from '../../../shared/components/section-card';
import { useTRPC } from '../../../shared/trpc';
import type { AgentDetails } from '../api/agent-types';
import { useNow } from '../hooks/use-now';
import { formatDateTime } from '../utils/money';
import { relativeTime } from '../utils/relative-time';
import { errorMessage } from '../utils/trpc-errors';
import { AgentConfirmDialog } from './agent-confirm-dialog';
import { CopyButton } from './copy-button';

type KeyChange = 'rotate' | 'revoke';

const OVERLAP_MINUTES = SIGNING_KEY_ROTATION_OVERLAP_SECONDS / 60;

export function AgentIdentityCard({ agent }: { agent: Pick<AgentDetails, 'id' | 'name' | 'status'> }) {
  const trpc = useTRPC();
  const identity = useQuery(trpc.agents.identity.queryOptions({ agent_id: agent.id }));

  return (
    <SectionCard title="Request signing">
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        Purser signs the agent&apos;s outgoing HTTP requests with its own Ed25519 key (Web Bot Auth; Visa Trusted Agent Protocol on paid requests), so
        a seller can check which agent is calling against the public key directory below.
      </Typography>
      {identity.isPending ? (
        <Skeleton variant="rounded" height={180} role="status" aria-label="Loading request signing" />
      ) : identity.isError ? (
        <RetryAlert onRetry={() => void identity.refetch()}>{errorMessage(identity.error, 'Unable to load the signing key.')}</RetryAlert>
      ) : (
        <IdentityControls agent={agent} identity={identity.data} />
      )}
    </SectionCard>
  );
}

function IdentityControls({ agent, identity }: { agent: Pick<AgentDetails, 'id' | 'name' | 'status'>; identity: AgentIdentityView }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const now = useNow(30_000);
  const [open, setOpen] = useState<KeyChange | null>(null);
  const [dialogError, setDialogError] = useState<string | null>(null);
  const [modeError, setModeError] = useState<string | null>(null);
  const saved = (view: AgentIdentityView) => queryClient.setQueryData(trpc.agents.identity.queryKey({ agent_id: agent.id }), view);
  const rotate = useMutation(trpc.agents.rotateSigningKey.mutationOptions());
  const revoke = useMutation(trpc.agents.revokeSigningKey.mutationOptions());
  const updateMode = useMutation(trpc.agents.updateRequestSigning.mutationOptions());
  const busy = rotate.isPending || revoke.isPending;

  const current = identity.keys.find((key) => key.current) ?? null;
  // A key past its retirement has left the directory, whether or not the page has asked again.
  const retiring = identity.keys.filter((key) => !key.current && key.retires_at !== null && Date.parse(key.retires_at) > now);

  const changeKey = async (change: KeyChange) => {
    setDialogError(null);
    try {
      saved(change === 'rotate' ? await rotate.mutateAsync({ agent_id: agent.id }) : await revoke.mutateAsync({ agent_id: agent.id }));
      setOpen(null);
      toast.success(change === 'rotate' ? 'Signing key rotated' : 'Signing key revoked');
    } catch (failure) {
      setDialogError(errorMessage(failure, `Failed to ${change} the signing key`));
    }
  };

  const changeMode = async (mode: RequestSigningMode) => {
    setModeError(null);
    try {
      saved(await updateMode.mutateAsync({ agent_id: agent.id, request_signing: mode }));
      toast.success(`Sign requests: ${REQUEST_SIGNING_LABELS[mode]}`);
    } catch (failure) {
      setModeError(errorMessage(failure, 'Failed to save which requests are signed'));
    }
  };

  return (
    <>
      {agent.status !== 'active' ? (
        <Alert severity="info" sx={{ mb: 2 }}>
          The agent is suspended: its directory publishes no key, so no seller accepts its signatures until you reactivate it.
        </Alert>
      ) : null}
      <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'max-content minmax(0, 1fr)' }, columnGap: 2, rowGap: { xs: 0.25, sm: 1 } }}>
        <Field label="Key id">
          {current ? (
            <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', minWidth: 0 }}>
              <Typography component="code" variant="body2" sx={{ fontFamily: 'monospace', wordBreak: 'break-all', minWidth: 0 }} data-testid="signing-keyid">
                {current.keyid}
              </Typography>
              <CopyButton value={current.keyid} thing="Key id" />
            </Stack>
          ) : (
            'None'
          )}
        </Field>
        <Field label="Directory">
          <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', minWidth: 0 }}>
            <Link href={identity.directory_url} target="_blank" rel="noopener noreferrer" variant="body2" sx={{ wordBreak: 'break-all', minWidth: 0 }} data-testid="signing-directory">
              {identity.directory_url}
            </Link>
            <CopyButton value={identity.directory_url} thing="Directory URL" />
          </Stack>
        </Field>
        <Field label="Last signed">
          <span data-testid="signing-last-signed">
            {identity.last_signed_at ? (
              <>
                <time dateTime={identity.last_signed_at} title={formatDateTime(identity.last_signed_at)}>
                  {relativeTime(identity.last_signed_at, now)}
                </time>
                {identity.last_signed_host ? ` · ${identity.last_signed_host}` : ''}
              </>
            ) : (
              'Never'
            )}
          </span>
        </Field>
        {retiring.length > 0 ? (
          <Field label="Rotating out">
            <Stack component="ul" spacing={0.5} sx={{ m: 0, p: 0, listStyle: 'none' }} data-testid="signing-retiring">
              {retiring.map((key) => (
                <Box component="li" key={key.keyid} sx={{ minWidth: 0 }}>
                  <Typography component="code" variant="body2" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
                    {key.keyid}
                  </Typography>{' '}
                  <Typography component="span" variant="body2" color="text.secondary">
                    retires{' '}
                    <time dateTime={key.retires_at!} title={formatDateTime(key.retires_at!)}>
                      {relativeTime(key.retires_at!, now)}
                    </time>
                  </Typography>
                </Box>
              ))}
            </Stack>
          </Field>
        ) : null}
      </Box>

      <TextField
        select
        id="request-signing"
        label="Sign requests"
        value={identity.request_signing}
        disabled={updateMode.isPending}
        onChange={(event) => void changeMode(event.target.value as RequestSigningMode)}
        helperText="Which of the agent's outgoing requests carry its signature."
        sx={{ mt: 3, width: { xs: '100%', sm: 360 } }}
      >
        {REQUEST_SIGNING_MODES.map((mode) => (
          <MenuItem key={mode} value={mode}>
            {REQUEST_SIGNING_LABELS[mode]}
          </MenuItem>
        ))}
      </TextField>
      {modeError ? (
        <Alert severity="error" sx={{ mt: 2 }}>
          {modeError}
        </Alert>
      ) : null}

      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', mt: 2 }}>
        <Button
          variant="outlined"
          disabled={agent.status !== 'active'}
          onClick={() => {
            setDialogError(null);
            setOpen('rotate');
          }}
        >
          Rotate key
        </Button>
        <Button
          variant="outlined"
          color="error"
          onClick={() => {
            setDialogError(null);
            setOpen('revoke');
          }}
        >
          Revoke key
        </Button>
      </Stack>

      <AgentConfirmDialog
        id="rotate-signing-key"
        open={open === 'rotate'}
        title="Rotate the signing key?"
        confirmLabel="Rotate key"
        busyLabel="Rotating..."
        color="primary"
        busy={busy}
        error={dialogError}
        onConfirm={() => void changeKey('rotate')}
        onClose={() => setOpen(null)}
      >
        <DialogContentText>
          A new key signs {agent.name}&apos;s requests from now on. The current key stays valid in the directory for {OVERLAP_MINUTES} minutes, so
          requests it signed just before still verify; then it is gone.
        </DialogContentText>
      </AgentConfirmDialog>

      <AgentConfirmDialog
        id="revoke-signing-key"
        open={open === 'revoke'}
        title="Revoke the signing key?"
        confirmLabel="Revoke key"
        busyLabel="Revoking..."
        color="error"
        busy={busy}
        error={dialogError}
        onConfirm={() => void changeKey('revoke')}
        onClose={() => setOpen(null)}
      >
        <DialogContentText>
          A new key signs {agent.name}&apos;s requests from now on, and the current key leaves the directory at once: every request it signed stops
          verifying immediately. Revoke a key you no longer trust; rotate it otherwise.
        </DialogContentText>
      </AgentConfirmDialog>
    </>
  );
}

/** One row of the card's list: the label above the value on phones, beside it from tablets up. */
function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <Typography component="dt" variant="body2" color="text.secondary" sx={{ mt: { xs: 1, sm: 0 }, alignSelf: 'center' }}>
        {label}
      </Typography>
      <Typography component="dd" variant="body2" sx={{ m: 0, minWidth: 0, alignSelf: 'center' }}>
        {children}
      </Typography>
    </>
  );
}
