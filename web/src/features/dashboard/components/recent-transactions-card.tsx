// 'Recent Transactions': the owner wallet's newest 10, newest first.
import CallMadeRounded from '@mui/icons-material/CallMadeRounded';
import CallReceivedRounded from '@mui/icons-material/CallReceivedRounded';
import { Box, List, ListItem, Stack, Typography } from '@mui/material';
import { SectionCard } from '../../../shared/components/section-card';
import type { DashboardTransaction } from '../api/dashboard-types';
import { formatAmount, formatDashboardDate, truncateAddress } from '../utils/format';

export function RecentTransactionsCard({ transactions }: { transactions: readonly DashboardTransaction[] }) {
  return (
    <SectionCard title="Recent Transactions">
      {transactions.length === 0 ? (
        <Typography color="text.secondary">No transactions yet.</Typography>
      ) : (
        <List disablePadding aria-label="Recent transactions">
          {transactions.map((transaction, index) => (
            <TransactionRow key={transaction.id} transaction={transaction} last={index === transactions.length - 1} />
          ))}
        </List>
      )}
    </SectionCard>
  );
}

function TransactionRow({ transaction, last }: { transaction: DashboardTransaction; last: boolean }) {
  const incoming = transaction.type === 'deposit';
  const Icon = incoming ? CallReceivedRounded : CallMadeRounded;

  return (
    <ListItem divider={!last} disableGutters sx={{ gap: 1.5, alignItems: 'center' }}>
      <Box
        sx={{
          display: 'grid',
          placeItems: 'center',
          width: 36,
          height: 36,
          borderRadius: '50%',
          flexShrink: 0,
          bgcolor: 'action.hover',
          color: incoming ? 'success.main' : 'text.secondary',
        }}
      >
        <Icon fontSize="small" aria-hidden />
      </Box>
      <Box sx={{ minWidth: 0, flexGrow: 1 }}>
        <Typography variant="body2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
          {transaction.description || transaction.type.replaceAll('_', ' ')}
        </Typography>
        <Typography variant="caption" color="text.secondary" component="p">
          {formatDashboardDate(transaction.created_at)}
          {transaction.to_address ? ` · to ${truncateAddress(transaction.to_address)}` : ''}
        </Typography>
      </Box>
      <Stack sx={{ alignItems: 'flex-end', flexShrink: 0 }}>
        <Typography variant="body2" sx={{ fontWeight: 700, color: incoming ? 'success.main' : 'text.primary', whiteSpace: 'nowrap' }}>
          {incoming ? '+' : '-'}
          {formatAmount(transaction.amount)} {transaction.currency}
        </Typography>
      </Stack>
    </ListItem>
  );
}
