// Route '/dashboard/api-keys': the owner's API keys for servers and automation calling the
// owner API: create one with its scopes and lifetime (shown once), see what each may do, when it
// was last used and when it expires, revoke one.
import AddRounded from '@mui/icons-material/AddRounded';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  Container,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Link,
  Skeleton,
  Stack,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { darken, type Theme } from '@mui/material/styles';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { visuallyHidden } from '../../../shared/a11y/visually-hidden';
import { RetryAlert } from '../../../shared/components/retry-alert';
import { SidewaysScrollTable } from '../../../shared/components/sideways-scroll-table';
import { ASSISTANT_BUTTON_CLEARANCE } from '../../../shared/layout/assistant-button-space';
import { useTRPC } from '../../../shared/trpc';
import type { CreatedOwnerApiKey, OwnerApiKey } from '../api/api-key-types';
import { formatKeyDate, keyAllowance, keyLabel, keyState, sortApiKeys } from '../utils/api-keys';
import { errorMessage } from '../utils/trpc-errors';
import { ApiKeySecretDialog } from './api-key-secret-dialog';
import { CreateApiKeyDialog } from './create-api-key-dialog';

// Name and status first: on a phone they are what shows before the table is scrolled.
const COLUMNS = ['Name', 'Status', 'Scopes', 'Key', 'Last used', 'Expires', 'Created', ''] as const;

export function ApiKeysPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const keys = useQuery(trpc.apiKeys.list.queryOptions());
  const [createOpen, setCreateOpen] = useState(false);
  const [createKey, setCreateKey] = useState(0);
  // The new key lives only in this state; it is dropped when its dialog has closed.
  const [created, setCreated] = useState<{ key: CreatedOwnerApiKey; open: boolean } | null>(null);
  // Kept while the dialog fades out (open: false), so its text stays.
  const [revoking, setRevoking] = useState<{ key: OwnerApiKey; open: boolean } | null>(null);

  const revoke = useMutation(
    trpc.apiKeys.revoke.mutationOptions({
      onSuccess: (revoked) => {
        toast.success(`API key ${keyLabel(revoked)} revoked`);
        setRevoking((current) => (current ? { ...current, open: false } : null));
        void queryClient.invalidateQueries({ queryKey: trpc.apiKeys.list.queryKey() });
      },
      onError: (error) => toast.error(errorMessage(error, 'Failed to revoke the API key')),
    }),
  );

  const list = keys.data ? sortApiKeys(keys.data.api_keys) : [];
  const allowance = keyAllowance(list);
  const openCreate = () => {
    setCreateKey((current) => current + 1);
    setCreateOpen(true);
  };

  return (
    <Container component="main" maxWidth="lg" sx={{ pt: { xs: 3, md: 4 }, pb: ASSISTANT_BUTTON_CLEARANCE }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ justifyContent: 'space-between', alignItems: { sm: 'flex-start' }, mb: 3 }}>
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="h4" component="h1" sx={{ fontWeight: 700 }}>
            API keys
          </Typography>
          <Typography color="text.secondary" sx={{ mt: 1, maxWidth: 720 }}>
            Owner API keys (<code>psk_…</code>) let your servers and automation call the owner API as you, within the scopes you give each
            key, until it expires; no key can create or revoke keys. Every use is in the audit log. Each key is shown once and stored only as
            a hash. See the{' '}
            {/* Served by the server, not a page of this app: a plain link. */}
            <Link href="/docs/api">API reference</Link>. Agents use their own keys, on their connect pages.
          </Typography>
        </Box>
        {keys.data ? (
          <Button variant="contained" startIcon={<AddRounded />} onClick={openCreate} disabled={!allowance.canCreate} sx={{ flexShrink: 0 }}>
            Create API key
          </Button>
        ) : null}
      </Stack>

      {keys.isPending ? (
        <Box aria-busy="true" aria-label="Loading API keys">
          <Skeleton variant="rounded" height={220} />
        </Box>
      ) : keys.isError ? (
        <RetryAlert onRetry={() => void keys.refetch()}>{errorMessage(keys.error, 'Unable to load your API keys.')}</RetryAlert>
      ) : (
        <Card variant="outlined" component="section" aria-labelledby="api-keys-title">
          <CardContent>
            <Stack direction="row" spacing={2} sx={{ justifyContent: 'space-between', alignItems: 'baseline', flexWrap: 'wrap', mb: 1 }}>
              <Typography variant="h6" component="h2" id="api-keys-title">
                Keys
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {allowance.active} of {allowance.max} active
              </Typography>
            </Stack>
            {!allowance.canCreate ? (
              <Alert severity="info" sx={{ mb: 2 }}>
                You have {allowance.max} active keys, the most an owner may hold. Revoke one, or wait for one to expire, to create another.
              </Alert>
            ) : null}
            {list.length === 0 ? (
              <Box sx={{ textAlign: 'center', py: 5 }}>
                <Typography color="text.secondary" sx={{ mb: 2 }}>
                  No API keys yet. Create one for each server or workflow, so you can revoke one without touching the others.
                </Typography>
                <Button variant="outlined" startIcon={<AddRounded />} onClick={openCreate}>
                  Create API key
                </Button>
              </Box>
            ) : (
              <SidewaysScrollTable label="API keys table" minWidth={1040}>
                <TableHead>
                  <TableRow>
                    {COLUMNS.map((column, index) => (
                      <TableCell key={index} sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}>
                        {column || <span style={visuallyHidden}>Actions</span>}
                      </TableCell>
                    ))}
                  </TableRow>
                </TableHead>
                <TableBody>
                  {list.map((key) => (
                    <KeyRow key={key.id} apiKey={key} onRevoke={() => setRevoking({ key, open: true })} />
                  ))}
                </TableBody>
              </SidewaysScrollTable>
            )}
          </CardContent>
        </Card>
      )}

      <CreateApiKeyDialog
        key={createKey}
        open={createOpen}
        onClose={() => setCreateOpen(false)}
        onCreated={(result) => {
          setCreateOpen(false);
          setCreated({ key: result, open: true });
        }}
      />
      <ApiKeySecretDialog
        open={created?.open ?? false}
        created={created?.key ?? null}
        onClose={() => setCreated((current) => (current ? { ...current, open: false } : null))}
        onClosed={() => setCreated(null)}
      />
      <Dialog
        open={revoking?.open ?? false}
        onClose={revoke.isPending ? undefined : () => setRevoking((current) => (current ? { ...current, open: false } : null))}
        aria-labelledby="revoke-key-title"
        aria-describedby="revoke-key-text"
      >
        <DialogTitle id="revoke-key-title">Revoke API key?</DialogTitle>
        <DialogContent>
          <DialogContentText id="revoke-key-text" sx={{ overflowWrap: 'anywhere' }}>
            {revoking ? keyLabel(revoking.key) : ''} ({revoking?.key.prefix}…) stops working immediately: every request made with it is refused.
            This cannot be undone.
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setRevoking((current) => (current ? { ...current, open: false } : null))} disabled={revoke.isPending}>
            Cancel
          </Button>
          <Button
            variant="contained"
            color="error"
            onClick={() => revoking && revoke.mutate({ id: revoking.key.id })}
            disabled={revoke.isPending}
            sx={readableOnDark}
          >
            {revoke.isPending ? 'Revoking...' : 'Revoke key'}
          </Button>
        </DialogActions>
      </Dialog>
    </Container>
  );
}

function KeyRow({ apiKey, onRevoke }: { apiKey: OwnerApiKey; onRevoke: () => void }) {
  const state = keyState(apiKey);
  const muted = state === 'active' ? {} : { color: 'text.secondary' };
  return (
    <TableRow hover>
      <TableCell sx={{ ...muted, fontWeight: 500, overflowWrap: 'anywhere', minWidth: 140 }}>{apiKey.name || <em>Unnamed</em>}</TableCell>
      <TableCell sx={{ whiteSpace: 'nowrap' }}>
        {state === 'revoked' ? (
          <Typography variant="body2" color="text.secondary" component="span">
            Revoked {formatKeyDate(apiKey.revoked_at)}
          </Typography>
        ) : state === 'expired' ? (
          <Chip size="small" variant="outlined" color="warning" label="Expired" />
        ) : (
          <Chip size="small" variant="outlined" color="success" label="Active" />
        )}
      </TableCell>
      <TableCell sx={{ minWidth: 160 }}>
        <Stack direction="row" useFlexGap spacing={0.5} sx={{ flexWrap: 'wrap' }}>
          {apiKey.scopes.map((scope) => (
            <Chip key={scope} size="small" label={scope} sx={{ fontFamily: 'monospace', ...(state === 'active' ? {} : { opacity: 0.7 }) }} />
          ))}
        </Stack>
      </TableCell>
      <TableCell sx={{ ...muted, fontFamily: 'monospace', whiteSpace: 'nowrap' }}>{apiKey.prefix}…</TableCell>
      <TableCell sx={{ ...muted, whiteSpace: 'nowrap' }}>
        {apiKey.last_used_at ? <time dateTime={apiKey.last_used_at}>{formatKeyDate(apiKey.last_used_at)}</time> : 'Never'}
      </TableCell>
      <TableCell sx={{ ...muted, whiteSpace: 'nowrap' }}>
        <time dateTime={apiKey.expires_at}>{formatKeyDate(apiKey.expires_at)}</time>
      </TableCell>
      <TableCell sx={{ ...muted, whiteSpace: 'nowrap' }}>
        <time dateTime={apiKey.created_at}>{formatKeyDate(apiKey.created_at)}</time>
      </TableCell>
      <TableCell align="right">
        {state === 'revoked' ? null : (
          <Button size="small" color="error" onClick={onRevoke} aria-label={`Revoke ${keyLabel(apiKey)}`}>
            Revoke
          </Button>
        )}
      </TableCell>
    </TableRow>
  );
}

/** The dark theme's error red (#f44336) under white text is below 4.5:1; its darker shade is not. */
const readableOnDark = (theme: Theme) =>
  theme.palette.mode === 'dark' ? { bgcolor: theme.palette.error.dark, '&:hover': { bgcolor: darken(theme.palette.error.dark, 0.2) } } : {};
