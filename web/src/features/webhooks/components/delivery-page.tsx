// One page of the delivery log (up to 50 rows) as table rows; the log itself shows the states
// of the first page before the table exists (loading, error, no deliveries). The page after it, once asked
// for, starts at this page's cursor and renders itself below: each page is its own
// webhooks.deliveries query, and a refreshed page hands the next one its new cursor.
import { Alert, Button, Skeleton, TableCell, TableRow } from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTRPC } from '../../../shared/trpc';
import type { WebhookDeliveryStatus, WebhookEndpoint } from '../api/webhook-types';
import { deliveriesInput } from '../utils/delivery-pages';
import { errorMessage } from '../utils/trpc-errors';
import { DeliveryRow } from './delivery-row';
import { visuallyHidden } from '../utils/visually-hidden';

const COLUMN_COUNT = 9;

interface DeliveryPageProps {
  endpoint: WebhookEndpoint;
  status: WebhookDeliveryStatus | null;
  cursor: string | null;
  /** 0 for the newest page. */
  index: number;
  pagesShown: number;
  onMore: () => void;
}

export function DeliveryPage({ endpoint, status, cursor, index, pagesShown, onMore }: DeliveryPageProps) {
  const trpc = useTRPC();
  const page = useQuery({ ...trpc.webhooks.deliveries.queryOptions(deliveriesInput(endpoint.id, status, cursor)), placeholderData: keepPreviousData });

  if (page.isPending) return <LoadingRows label={index === 0 ? 'Loading deliveries' : 'Loading more deliveries'} />;
  if (page.isError && !page.data) {
    return (
      <TableRow>
        <TableCell colSpan={COLUMN_COUNT}>
          <Alert
            severity="error"
            action={
              <Button color="inherit" size="small" onClick={() => void page.refetch()}>
                Retry
              </Button>
            }
          >
            {errorMessage(page.error, 'Unable to load the deliveries.')}
          </Alert>
        </TableCell>
      </TableRow>
    );
  }

  // The log draws the first page's empty state itself, outside the table.
  const { deliveries, nextCursor } = page.data;
  const last = index + 1 === pagesShown;
  return (
    <>
      {deliveries.map((delivery) => (
        <DeliveryRow key={delivery.id} delivery={delivery} endpointEnabled={endpoint.enabled} />
      ))}
      {nextCursor && !last ? (
        <DeliveryPage endpoint={endpoint} status={status} cursor={nextCursor} index={index + 1} pagesShown={pagesShown} onMore={onMore} />
      ) : null}
      {nextCursor && last ? (
        <TableRow>
          <TableCell colSpan={COLUMN_COUNT} sx={{ textAlign: 'center', borderBottom: 0 }}>
            <Button onClick={onMore}>Load more</Button>
          </TableCell>
        </TableRow>
      ) : null}
    </>
  );
}

function LoadingRows({ label }: { label: string }) {
  return (
    <TableRow aria-busy="true">
      <TableCell colSpan={COLUMN_COUNT}>
        <span style={visuallyHidden}>{label}</span>
        {[0, 1, 2].map((row) => (
          <Skeleton key={row} variant="text" height={32} />
        ))}
      </TableCell>
    </TableRow>
  );
}
