// A row of the delivery log, with Redeliver, and opened: every attempt (answer, timing, error)
// and the body that was sent (webhooks.delivery, read when the row is opened).
import ReplayRounded from '@mui/icons-material/ReplayRounded';
import { Box, Button, Chip, Skeleton, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { darken, type Theme } from '@mui/material/styles';
import { useState } from 'react';
import { toast } from 'sonner';
import { RetryAlert } from '../../../shared/components/retry-alert';
import { RowDetails, RowDetailsToggle } from '../../../shared/components/row-details';
import { useTRPC } from '../../../shared/trpc';
import type { WebhookDelivery } from '../api/webhook-types';
import { errorMessage } from '../utils/trpc-errors';
import { DELIVERY_STATUS_COLOR, deliveryStatusLabel, formatDateTime, formatLatency, formatShortDateTime, formatStatusCode } from '../utils/webhook-format';

const MONO = 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace';

export function DeliveryRow({ delivery, endpointEnabled }: { delivery: WebhookDelivery; endpointEnabled: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const detailsId = `delivery-${delivery.id}`;

  const redeliver = useMutation(
    trpc.webhooks.redeliver.mutationOptions({
      onSuccess: () => {
        toast.success(`Redelivery of ${delivery.eventType} started`);
        void queryClient.invalidateQueries({ queryKey: trpc.webhooks.deliveries.queryKey({ endpointId: delivery.endpointId }) });
        void queryClient.invalidateQueries({ queryKey: trpc.webhooks.delivery.queryKey({ deliveryId: delivery.id }) });
      },
      onError: (error) => toast.error(errorMessage(error, 'Failed to redeliver the event')),
    }),
  );

  return (
    <>
      <TableRow hover sx={{ '& > td': { borderBottom: open ? 0 : undefined } }}>
        <TableCell padding="checkbox">
          <RowDetailsToggle open={open} what={`attempts of ${delivery.eventType} ${delivery.eventId}`} detailsId={detailsId} onToggle={() => setOpen(!open)} />
        </TableCell>
        <TableCell>
          <Chip
            size="small"
            variant="outlined"
            color={DELIVERY_STATUS_COLOR[delivery.status]}
            label={deliveryStatusLabel(delivery)}
            sx={delivery.status === 'pending' ? readableWarning : undefined}
          />
        </TableCell>
        <TableCell>
          <Typography component="span" sx={{ fontFamily: MONO, fontSize: 13, display: 'block', whiteSpace: 'nowrap' }}>
            {delivery.eventType}
          </Typography>
          <Typography component="span" variant="caption" color="text.secondary" sx={{ fontFamily: MONO, display: 'block', whiteSpace: 'nowrap' }}>
            {delivery.eventId}
          </Typography>
        </TableCell>
        <TableCell sx={{ whiteSpace: 'nowrap' }}>
          <time dateTime={delivery.createdAt} title={formatDateTime(delivery.createdAt)}>
            {formatShortDateTime(delivery.createdAt)}
          </time>
        </TableCell>
        <TableCell sx={{ fontVariantNumeric: 'tabular-nums' }}>{delivery.attempts}</TableCell>
        <TableCell sx={{ fontVariantNumeric: 'tabular-nums' }}>{formatStatusCode(delivery.lastStatusCode)}</TableCell>
        <TableCell sx={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>{formatLatency(delivery.lastLatencyMs)}</TableCell>
        <TableCell sx={{ whiteSpace: 'nowrap' }}>
          {delivery.deliveredAt ? (
            <time dateTime={delivery.deliveredAt} title={formatDateTime(delivery.deliveredAt)}>
              {formatShortDateTime(delivery.deliveredAt)}
            </time>
          ) : (
            '—'
          )}
        </TableCell>
        <TableCell align="right">
          <Button
            size="small"
            startIcon={<ReplayRounded />}
            onClick={() => redeliver.mutate({ deliveryId: delivery.id })}
            disabled={redeliver.isPending || !endpointEnabled}
            aria-label={`Redeliver ${delivery.eventType} ${delivery.eventId}`}
          >
            {redeliver.isPending ? 'Sending...' : 'Redeliver'}
          </Button>
        </TableCell>
      </TableRow>
      <RowDetails open={open} detailsId={detailsId} colSpan={9}>
        <DeliveryDetail deliveryId={delivery.id} />
      </RowDetails>
    </>
  );
}

function DeliveryDetail({ deliveryId }: { deliveryId: string }) {
  const trpc = useTRPC();
  const detail = useQuery(trpc.webhooks.delivery.queryOptions({ deliveryId }));

  if (detail.isPending) {
    return (
      <Box aria-busy="true" aria-label="Loading attempts">
        <Skeleton variant="text" width="50%" />
        <Skeleton variant="rounded" height={80} sx={{ mt: 1 }} />
      </Box>
    );
  }
  if (detail.isError) {
    return (
      <RetryAlert onRetry={() => void detail.refetch()}>
        {errorMessage(detail.error, 'Unable to load the attempts.')}
      </RetryAlert>
    );
  }

  const { attemptLog, payload, nextAttemptAt, lastError, eventId } = detail.data;
  return (
    <Stack spacing={2}>
      <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
        <Box component="span" sx={{ mr: 1 }}>
          webhook-id
        </Box>
        <Box component="span" sx={{ fontFamily: MONO, color: 'text.primary' }}>
          {eventId}
        </Box>
        {nextAttemptAt ? (
          <>
            {' · '}next attempt <time dateTime={nextAttemptAt}>{formatDateTime(nextAttemptAt)}</time>
          </>
        ) : null}
      </Typography>
      {attemptLog.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          No attempt yet.{lastError ? ` ${lastError}` : ''}
        </Typography>
      ) : (
        <Table size="small" aria-label="Attempts">
          <TableHead>
            <TableRow>
              {['Attempt', 'Time', 'Status code', 'Latency', 'Result', 'Error'].map((column) => (
                <TableCell key={column} sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}>
                  {column}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {attemptLog.map((attempt) => (
              <TableRow key={attempt.attempt}>
                <TableCell sx={{ fontVariantNumeric: 'tabular-nums' }}>{attempt.attempt}</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  <time dateTime={attempt.at}>{formatDateTime(attempt.at)}</time>
                </TableCell>
                <TableCell sx={{ fontVariantNumeric: 'tabular-nums' }}>{formatStatusCode(attempt.statusCode)}</TableCell>
                <TableCell sx={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>{formatLatency(attempt.latencyMs)}</TableCell>
                <TableCell>
                  <Chip
                    size="small"
                    variant="outlined"
                    color={attempt.succeeded ? 'success' : 'error'}
                    label={attempt.succeeded ? 'Succeeded' : 'Failed'}
                  />
                </TableCell>
                <TableCell sx={{ fontFamily: MONO, fontSize: 12, maxWidth: 360, overflowWrap: 'anywhere' }}>{attempt.error ?? '—'}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      <Box>
        <Typography variant="subtitle2" component="h3" sx={{ mb: 0.5 }}>
          Body sent
        </Typography>
        <Box
          component="pre"
          tabIndex={0}
          role="region"
          aria-label="Body sent"
          sx={{ m: 0, p: 1.5, maxHeight: 280, overflow: 'auto', borderRadius: 1, bgcolor: 'action.hover', fontFamily: MONO, fontSize: 12 }}
        >
          {JSON.stringify(payload, null, 2)}
        </Box>
      </Box>
    </Stack>
  );
}

/** The light theme's warning orange on white is about 3:1; a darker shade of it reads at 4.5:1 and more. */
const readableWarning = (theme: Theme) => {
  if (theme.palette.mode !== 'light') return {};
  const color = darken(theme.palette.warning.main, 0.3);
  return { color, borderColor: color };
};
