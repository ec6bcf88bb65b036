// The payments a shadow policy would have refused, had it been enforced (every version of it
// counts), newest first, a page at a time; each opens its payment page.
import { Box, Button, Link, List, ListItem, ListItemText, Skeleton, Typography } from '@mui/material';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router';
import { RetryAlert } from '../../../shared/components/retry-alert';
import { useTRPC } from '../../../shared/trpc';
import { errorMessage, formatDateTime, formatDollars } from '../utils/display';
import { blockReason } from '../utils/would-have-blocked';

const PAGE_SIZE = 10;

export function WouldHaveBlocked({ policyId, policyName }: { policyId: string; policyName: string }) {
  const trpc = useTRPC();
  const payments = useInfiniteQuery(
    trpc.policies.wouldHaveBlocked.infiniteQueryOptions({ policyId, limit: PAGE_SIZE }, { getNextPageParam: (page) => page.nextCursor ?? undefined }),
  );

  if (payments.isPending) return <Skeleton variant="rounded" height={72} role="status" aria-label="Loading the payments it would have blocked" />;
  if (payments.isError) {
    return (
      <RetryAlert onRetry={() => void payments.refetch()}>
        {errorMessage(payments.error, 'Unable to load the payments this policy would have blocked.')}
      </RetryAlert>
    );
  }
  const intents = payments.data.pages.flatMap((page) => page.intents);
  if (intents.length === 0) {
    return <Typography color="text.secondary">No payment so far that this policy would have blocked.</Typography>;
  }
  return (
    <Box>
      <List dense disablePadding aria-label={`Payments ${policyName} would have blocked`}>
        {intents.map((intent) => {
          const reason = blockReason(intent.policyDecision, policyName);
          return (
            <ListItem key={intent.id} disableGutters divider>
              <ListItemText
                primary={
                  <Link component={RouterLink} to={`/dashboard/payments/${intent.id}`} sx={{ overflowWrap: 'anywhere' }}>
                    {formatDollars(intent.amount)} {intent.currency} · {intent.purpose || 'Payment'}
                  </Link>
                }
                secondary={[
                  `${intent.status.replaceAll('_', ' ')} · ${formatDateTime(intent.createdAt)}${reason.version !== null ? ` · version ${reason.version}` : ''}`,
                  ...reason.messages,
                ].join(' — ')}
                slotProps={{ secondary: { sx: { overflowWrap: 'anywhere' } } }}
              />
            </ListItem>
          );
        })}
      </List>
      {payments.hasNextPage ? (
        <Button onClick={() => void payments.fetchNextPage()} disabled={payments.isFetchingNextPage} sx={{ mt: 1 }}>
          {payments.isFetchingNextPage ? 'Loading...' : 'Show more'}
        </Button>
      ) : null}
    </Box>
  );
}
