// The transactions page's table: nine columns, dates as 'MMM d, yyyy HH:mm', addresses cut to
// 12 characters (the full one in a tooltip), types with spaces for underscores.
import { Box, Chip, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Tooltip } from '@mui/material';
import { formatTableDate, formatTransactionType, truncateAddress } from '../utils/transaction-filters';

export interface TableTransaction {
  id: string;
  type: string;
  amount: number;
  currency: string;
  status: string;
  category: string | null;
  to_address: string | null;
  description: string;
  metadata: Record<string, unknown>;
  created_at: string;
}

const COLUMNS = ['Date', 'Type', 'Amount', 'Currency', 'Status', 'Category', 'To', 'Description', 'Metadata'];
const AMOUNT = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const STATUS_COLOR = { completed: 'success', pending: 'warning', failed: 'error' } as const;

export function TransactionsTable({ transactions }: { transactions: readonly TableTransaction[] }) {
  return (
    // The container scrolls sideways on narrow screens; it is focusable so keyboards can too.
    <TableContainer tabIndex={0} aria-label="Agent transactions table" sx={{ overflowX: 'auto' }}>
      <Table size="small" sx={{ minWidth: 1100 }}>
        <TableHead>
          <TableRow>
            {COLUMNS.map((column) => (
              <TableCell key={column} align={column === 'Amount' ? 'right' : 'left'} sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}>
                {column}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {transactions.map((transaction) => (
            <TableRow key={transaction.id} hover>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatTableDate(transaction.created_at)}</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatTransactionType(transaction.type)}</TableCell>
              <TableCell align="right" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                {AMOUNT.format(transaction.amount)}
              </TableCell>
              <TableCell>{transaction.currency}</TableCell>
              <TableCell>
                <Chip size="small" variant="outlined" label={transaction.status} color={STATUS_COLOR[transaction.status as keyof typeof STATUS_COLOR] ?? 'default'} />
              </TableCell>
              <TableCell>{transaction.category ?? '—'}</TableCell>
              <TableCell sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>
                {transaction.to_address ? (
                  <Tooltip title={transaction.to_address}>
                    <span>{truncateAddress(transaction.to_address)}</span>
                  </Tooltip>
                ) : (
                  '—'
                )}
              </TableCell>
              <TableCell sx={{ minWidth: 140 }}>{transaction.description || '—'}</TableCell>
              <TableCell sx={{ width: 250, minWidth: 250 }}>
                <MetadataCell metadata={transaction.metadata} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

function MetadataCell({ metadata }: { metadata: Record<string, unknown> }) {
  const entries = Object.entries(metadata);
  if (entries.length === 0) return <>—</>;
  // One `key: value` line per field reads better than a JSON blob in a narrow column.
  return (
    <Box component="dl" sx={{ m: 0, fontFamily: 'monospace', fontSize: 12, lineHeight: 1.6 }}>
      {entries.map(([key, value]) => (
        <Box key={key} sx={{ overflowWrap: 'anywhere' }}>
          <Box component="dt" sx={{ display: 'inline', color: 'text.secondary', mr: 0.5 }}>
            {key}:
          </Box>
          <Box component="dd" sx={{ display: 'inline', m: 0 }}>
            {typeof value === 'string' ? value : JSON.stringify(value)}
          </Box>
        </Box>
      ))}
    </Box>
  );
}
