// One page of the delivery log (up to 50 rows) as table rows, and below it the page after it or
// 'Load more' (shared/components/cursor-page-rows.tsx). Each page is its own
// webhooks.deliveries query, and a refreshed page hands the next one its new cursor.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { CursorPageRows } from '../../../shared/components/cursor-page-rows';
import { useTRPC } from '../../../shared/trpc';
import type { WebhookDeliveryStatus, WebhookEndpoint } from '../api/webhook-types';
import { deliveriesInput } from '../utils/delivery-pages';
import { errorMessage } from '../utils/trpc-errors';
import { DeliveryRow } from './delivery-row';

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
  return (
    <CursorPageRows
      page={page}
      columnCount={COLUMN_COUNT}
      index={index}
      pagesShown={pagesShown}
      onMore={onMore}
      loadingLabel={index === 0 ? 'Loading deliveries' : 'Loading more deliveries'}
      skeletonRows={3}
      errorText={(error) => errorMessage(error, 'Unable to load the deliveries.')}
      rows={({ deliveries }) => deliveries.map((delivery) => <DeliveryRow key={delivery.id} delivery={delivery} endpointEnabled={endpoint.enabled} />)}
      nextPage={(nextCursor) => <DeliveryPage endpoint={endpoint} status={status} cursor={nextCursor} index={index + 1} pagesShown={pagesShown} onMore={onMore} />}
    />
  );
}
