// One endpoint's delivery log, newest first and paged on the server: each event sent to it,
// its state, attempts, last answer and timing; a row opens on every attempt, and Redeliver
// sends the event again (same webhook-id). It refreshes on request, and when the console's
// live stream invalidates webhooks.deliveries; never on a timer.
import RefreshRounded from '@mui/icons-material/RefreshRounded';
import { Alert, Box, Button, Card, CardContent, FormControl, InputLabel, MenuItem, Select, Skeleton, Stack, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useIsFetching, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { visuallyHidden } from '../../../shared/a11y/visually-hidden';
import { RetryAlert } from '../../../shared/components/retry-alert';
import { SidewaysScrollTable } from '../../../shared/components/sideways-scroll-table';
import { useTRPC } from '../../../shared/trpc';
import type { WebhookDeliveryStatus, WebhookEndpoint } from '../api/webhook-types';
import { deliveriesInput } from '../utils/delivery-pages';
import { errorMessage } from '../utils/trpc-errors';
import { DELIVERY_STATUS_LABEL } from '../utils/webhook-format';
import { DeliveryPage } from './delivery-page';

// Status and event first: on a phone they are what shows before the table is scrolled.
export const DELIVERY_COLUMNS = ['', 'Status', 'Event', 'Created', 'Attempts', 'Last code', 'Latency', 'Delivered', ''] as const;

const STATUS_FILTERS = ['all', 'succeeded', 'failed', 'pending'] as const;
type StatusFilter = (typeof STATUS_FILTERS)[number];

export function DeliveryLog({ endpoint }: { endpoint: WebhookEndpoint }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<StatusFilter>('all');
  const [pagesShown, setPagesShown] = useState(1);
  const statusFilter: WebhookDeliveryStatus | null = status === 'all' ? null : status;
  // The newest page, read here for the log's loading, error and empty states (drawn outside the
  // table, which scrolls sideways on a phone); its rows share this query with DeliveryPage.
  const first = useQuery(trpc.webhooks.deliveries.queryOptions(deliveriesInput(endpoint.id, statusFilter, null)));
  const logKey = trpc.webhooks.deliveries.queryKey({ endpointId: endpoint.id });
  const refreshing = useIsFetching({ queryKey: logKey }) > 0;

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: logKey });
    // Rows opened on their attempts read webhooks.delivery: those refresh too.
    void queryClient.invalidateQueries({ queryKey: trpc.webhooks.delivery.queryKey() });
  };

  return (
    <Card variant="outlined" component="section" aria-labelledby="delivery-log-title">
      <CardContent>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' }, mb: 2 }}>
          <Box sx={{ minWidth: 0 }}>
            <Typography variant="h6" component="h2" id="delivery-log-title">
              Delivery log
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}>
              {endpoint.url}
            </Typography>
          </Box>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexShrink: 0 }}>
            <FormControl size="small" sx={{ minWidth: 140 }}>
              <InputLabel id="delivery-status-label">Status</InputLabel>
              <Select
                labelId="delivery-status-label"
                label="Status"
                value={status}
                onChange={(event) => {
                  setStatus(event.target.value as StatusFilter);
                  setPagesShown(1);
                }}
              >
                <MenuItem value="all">All</MenuItem>
                {STATUS_FILTERS.filter((value) => value !== 'all').map((value) => (
                  <MenuItem key={value} value={value}>
                    {DELIVERY_STATUS_LABEL[value]}
                  </MenuItem>
                ))}
              </Select>
            </FormControl>
            <Button variant="outlined" startIcon={<RefreshRounded />} onClick={refresh} disabled={refreshing}>
              {refreshing ? 'Refreshing...' : 'Refresh'}
            </Button>
          </Stack>
        </Stack>
        {!endpoint.enabled ? (
          <Alert severity="info" sx={{ mb: 2 }}>
            This endpoint is disabled: new events are not delivered to it, and its deliveries cannot be sent again until it is enabled.
          </Alert>
        ) : null}
        {first.isPending ? (
          <Box aria-busy="true" aria-label="Loading deliveries">
            {[0, 1, 2].map((row) => (
              <Skeleton key={row} variant="text" height={40} />
            ))}
          </Box>
        ) : first.isError ? (
          <RetryAlert onRetry={() => void first.refetch()}>{errorMessage(first.error, 'Unable to load the deliveries.')}</RetryAlert>
        ) : first.data.deliveries.length === 0 ? (
          <Typography color="text.secondary" sx={{ py: 4, textAlign: 'center' }}>
            {statusFilter ? 'No deliveries with this status.' : 'No deliveries yet. Events this endpoint subscribes to appear here as they are sent.'}
          </Typography>
        ) : (
          <SidewaysScrollTable label="Deliveries" minWidth={900}>
            <TableHead>
              <TableRow>
                {DELIVERY_COLUMNS.map((column, index) => (
                  <TableCell key={index} sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}>
                    {column || <span style={visuallyHidden}>{index === 0 ? 'Details' : 'Actions'}</span>}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              <DeliveryPage
                key={`${endpoint.id}:${status}`}
                endpoint={endpoint}
                status={statusFilter}
                cursor={null}
                index={0}
                pagesShown={pagesShown}
                onMore={() => setPagesShown((shown) => shown + 1)}
              />
            </TableBody>
          </SidewaysScrollTable>
        )}
      </CardContent>
    </Card>
  );
}
