// The owner's payment intents for a set of filters, a server page at a time (cursor paging).
// Changing a filter keeps the rows on screen until the new first page arrives. Live updates
// need nothing here: the console layout's stream invalidates every intents.list query.
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTRPC } from '../../../shared/trpc';
import { listInputFromFilters, type PaymentFilters } from '../utils/payment-filters';

export function usePaymentsList(filters: PaymentFilters) {
  const trpc = useTRPC();
  const input = useMemo(() => listInputFromFilters(filters), [filters]);
  const query = useInfiniteQuery(
    trpc.intents.list.infiniteQueryOptions(input, {
      getNextPageParam: (page) => page.nextCursor ?? undefined,
      placeholderData: keepPreviousData,
    }),
  );
  const intents = useMemo(() => query.data?.pages.flatMap((page) => page.intents) ?? [], [query.data]);
  return { query, intents };
}
