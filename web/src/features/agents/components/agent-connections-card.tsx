// The apps connected to this agent through OAuth (oauth.connections): MCP hosts and other
// clients the owner approved on the consent page, newest first, revoked ones included. Each
// shows its scopes, what it spent against its own cap, when it was made, last acted and
// expires; Revoke (after a confirmation) ends it and its tokens at once.
import { Box, Button, Chip, DialogContentText, Divider, Skeleton, Stack, Typography } from '@mui/material';
import type { OAuthConnectionView } from '@purser/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import { toast } from 'sonner';
import { RetryAlert } from '../../../shared/components/retry-alert';
import { SectionCard } from '../../../shared/components/section-card';
import { useTRPC } from '../../../shared/trpc';
import { useNow } from '../hooks/use-now';
import {
  capAndSpent,
  CONNECTION_STATUS_LABELS,
  connectionName,
  connectionStatus,
  formatDate,
  revokedReasonText,
  SCOPE_LABELS,
  type ConnectionStatus,
} from '../utils/oauth-connections';
import { relativeTime } from '../utils/relative-time';
import { errorMessage } from '../utils/trpc-errors';
import { AgentConfirmDialog } from './agent-confirm-dialog';

const STATUS_COLORS: Record<ConnectionStatus, 'success' | 'default' | 'warning'> = { active: 'success', expired: 'warning', revoked: 'default' };

export function AgentConnectionsCard({ agentId }: { agentId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const now = useNow(60_000);
  const connections = useQuery(trpc.oauth.connections.queryOptions({ agentId }));
  const revoke = useMutation(trpc.oauth.revokeConnection.mutationOptions());
  const [revoking, setRevoking] = useState<OAuthConnectionView | null>(null);
  const [error, setError] = useState<string | null>(null);

  const confirmRevoke = async () => {
    if (!revoking) return;
    setError(null);
    try {
      await revoke.mutateAsync({ connectionId: revoking.id });
      toast.success(`${connectionName(revoking)} is disconnected`);
      setRevoking(null);
      await queryClient.invalidateQueries({ queryKey: trpc.oauth.connections.queryKey({ agentId }) });
    } catch (failure) {
      setError(errorMessage(failure, 'Failed to revoke the connection'));
    }
  };

  return (
    <SectionCard title="Connections">
      {connections.isPending ? (
        <Skeleton variant="rounded" height={56} role="status" aria-label="Loading connections" />
      ) : connections.isError ? (
        <RetryAlert onRetry={() => void connections.refetch()}>{errorMessage(connections.error, 'Unable to load the connections.')}</RetryAlert>
      ) : connections.data.connections.length === 0 ? (
        <Typography color="text.secondary">
          No apps are connected. An MCP host connects by signing you in to Purser and asking you to approve it for an agent; it appears here, and you can revoke it at any time.
        </Typography>
      ) : (
        <Stack component="ul" divider={<Divider component="li" aria-hidden />} spacing={2} sx={{ listStyle: 'none', m: 0, p: 0 }}>
          {connections.data.connections.map((connection) => (
            <ConnectionItem key={connection.id} connection={connection} now={now} onRevoke={() => {
              setError(null);
              setRevoking(connection);
            }} />
          ))}
        </Stack>
      )}
      <AgentConfirmDialog
        id="revoke-connection"
        open={revoking !== null}
        title="Revoke this connection?"
        confirmLabel="Revoke"
        busyLabel="Revoking..."
        color="error"
        busy={revoke.isPending}
        error={error}
        onConfirm={() => void confirmRevoke()}
        onClose={() => setRevoking(null)}
      >
        <DialogContentText>
          {revoking ? connectionName(revoking) : 'The app'} will stop acting as this agent at once: its access and refresh tokens stop working. To use it again, connect it again from the app.
        </DialogContentText>
      </AgentConfirmDialog>
    </SectionCard>
  );
}

function ConnectionItem({ connection, now, onRevoke }: { connection: OAuthConnectionView; now: number; onRevoke: () => void }) {
  const status = connectionStatus(connection, now);
  const name = connectionName(connection);
  const facts: Array<[string, string]> = [
    ['Spending', capAndSpent(connection)],
    ['Connected', formatDate(connection.createdAt)],
    ['Last used', connection.lastUsedAt ? relativeTime(connection.lastUsedAt, now) : 'Never'],
    [status === 'expired' ? 'Expired' : 'Expires', connection.expiresAt ? formatDate(connection.expiresAt) : 'Never'],
  ];
  const reason = revokedReasonText(connection);
  if (reason) facts.push(['Ended', `${reason}, ${formatDate(connection.revokedAt!)}`]);
  return (
    <Box component="li" aria-label={name}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ justifyContent: 'space-between', alignItems: { xs: 'flex-start', sm: 'flex-start' } }}>
        <Box sx={{ minWidth: 0 }}>
          <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
            <Typography component="h3" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
              {name}
            </Typography>
            <Chip size="small" label={CONNECTION_STATUS_LABELS[status]} color={STATUS_COLORS[status]} variant={status === 'active' ? 'filled' : 'outlined'} />
          </Stack>
          {connection.clientName ? (
            <Typography variant="body2" color="text.secondary" sx={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', overflowWrap: 'anywhere' }}>
              {connection.clientId}
            </Typography>
          ) : null}
          <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap', mt: 1 }} aria-label="Scopes">
            {connection.scopes.map((scope) => (
              <Chip key={scope} size="small" variant="outlined" label={SCOPE_LABELS[scope]} />
            ))}
          </Stack>
          <Box component="dl" sx={{ m: 0, mt: 1, display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2, rowGap: 0.25 }}>
            {facts.map(([label, value]) => (
              <Fragment key={label}>
                <Typography component="dt" variant="body2" color="text.secondary">
                  {label}
                </Typography>
                <Typography component="dd" variant="body2" sx={{ m: 0 }}>
                  {value}
                </Typography>
              </Fragment>
            ))}
          </Box>
        </Box>
        {status === 'active' ? (
          <Button variant="outlined" color="error" onClick={onRevoke} sx={{ flexShrink: 0 }} aria-label={`Revoke ${name}`}>
            Revoke
          </Button>
        ) : null}
      </Stack>
    </Box>
  );
}
