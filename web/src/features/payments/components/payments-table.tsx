// The payments list: a dense table on wide screens, stacked rows on phones (an eight-column
// table would only scroll sideways there). A paid call (the x402-base rail) names the protocol
// it was paid in, x402 or MPP; other payments have none. Every row leads to its payment's page through a
// real link (keyboard, middle-click and "open in new tab" work); on the table, a click
// anywhere on the row follows it too.
import { Box, Chip, Link, List, ListItem, ListItemButton, Stack, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography, useMediaQuery } from '@mui/material';
import { useTheme } from '@mui/material/styles';
import type { MouseEvent } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import type { PaymentIntent } from '../api/payment-types';
import { formatTableDate, paymentTitle } from '../utils/format';
import { PROTOCOL_LABELS, RAIL_LABELS } from '../utils/intent-labels';
import { AmountText } from './amount-text';
import { IntentStatusChip } from './intent-status-chip';

interface Props {
  intents: readonly PaymentIntent[];
  agentNames: ReadonlyMap<string, string>;
}

export const paymentPath = (intentId: string) => `/dashboard/payments/${intentId}`;

export function PaymentsTable({ intents, agentNames }: Props) {
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('md'), { noSsr: true });
  const agentName = (agentId: string) => agentNames.get(agentId) ?? 'Unknown agent';
  return phone ? <StackedRows intents={intents} agentName={agentName} /> : <WideTable intents={intents} agentName={agentName} />;
}

interface RowsProps {
  intents: readonly PaymentIntent[];
  agentName: (agentId: string) => string;
}

function WideTable({ intents, agentName }: RowsProps) {
  const navigate = useNavigate();
  const followRow = (event: MouseEvent, intentId: string) => {
    // The row's own link and selecting text keep their usual behaviour.
    if ((event.target as Element).closest('a') || window.getSelection()?.toString()) return;
    void navigate(paymentPath(intentId));
  };

  return (
    <TableContainer sx={{ overflowX: 'auto' }}>
      <Table size="small" aria-label="Payments">
        <TableHead>
          <TableRow>
            <TableCell>Created</TableCell>
            <TableCell>Payment</TableCell>
            <TableCell>Agent</TableCell>
            <TableCell align="right">Amount</TableCell>
            <TableCell>Currency</TableCell>
            <TableCell>Rail</TableCell>
            <TableCell>Protocol</TableCell>
            <TableCell>Status</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {intents.map((intent) => (
            <TableRow
              key={intent.id}
              hover
              data-testid="payment-row"
              data-intent-id={intent.id}
              onClick={(event) => followRow(event, intent.id)}
              sx={{ cursor: 'pointer', '&:last-child td': { borderBottom: 0 } }}
            >
              <TableCell sx={{ whiteSpace: 'nowrap', color: 'text.secondary' }}>
                <time dateTime={intent.createdAt}>{formatTableDate(intent.createdAt)}</time>
              </TableCell>
              <TableCell sx={{ minWidth: 200, maxWidth: 360 }}>
                <Link component={RouterLink} to={paymentPath(intent.id)} underline="hover" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
                  {paymentTitle(intent)}
                </Link>
                {intent.merchant && intent.purpose.trim() ? (
                  <Typography variant="caption" color="text.secondary" component="p" noWrap title={intent.merchant}>
                    {intent.merchant}
                  </Typography>
                ) : null}
              </TableCell>
              <TableCell sx={{ maxWidth: 200 }}>
                <Typography variant="body2" noWrap title={agentName(intent.agentId)}>
                  {agentName(intent.agentId)}
                </Typography>
              </TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap', fontWeight: 600, fontVariantNumeric: 'tabular-nums' }}>
                <AmountText amountExact={intent.amountExact} />
              </TableCell>
              <TableCell>{intent.currency}</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>
                <RailLabel intent={intent} />
              </TableCell>
              <TableCell>
                <ProtocolChip intent={intent} />
              </TableCell>
              <TableCell>
                <IntentStatusChip status={intent.status} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

function StackedRows({ intents, agentName }: RowsProps) {
  return (
    <List disablePadding aria-label="Payments">
      {intents.map((intent) => (
        <ListItem key={intent.id} disablePadding divider data-testid="payment-row" data-intent-id={intent.id}>
          <ListItemButton component={RouterLink} to={paymentPath(intent.id)} sx={{ alignItems: 'flex-start', gap: 1.5, py: 1.25 }}>
            <Box sx={{ minWidth: 0, flexGrow: 1 }}>
              <Typography variant="body2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
                {paymentTitle(intent)}
              </Typography>
              <Typography variant="caption" color="text.secondary" component="p" sx={{ overflowWrap: 'anywhere' }}>
                {agentName(intent.agentId)} · <RailLabel intent={intent} />
                {intent.protocol ? (
                  <>
                    {' · '}
                    <Box component="span" data-testid="payment-protocol">
                      {PROTOCOL_LABELS[intent.protocol]}
                    </Box>
                  </>
                ) : null}
              </Typography>
              <Typography variant="caption" color="text.secondary" component="p">
                <time dateTime={intent.createdAt}>{formatTableDate(intent.createdAt)}</time>
              </Typography>
            </Box>
            <Stack spacing={0.5} sx={{ alignItems: 'flex-end', flexShrink: 0 }}>
              <Typography variant="body2" sx={{ fontWeight: 700, whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
                <AmountText amountExact={intent.amountExact} currency={intent.currency} />
              </Typography>
              <IntentStatusChip status={intent.status} />
            </Stack>
          </ListItemButton>
        </ListItem>
      ))}
    </List>
  );
}

function RailLabel({ intent }: { intent: PaymentIntent }) {
  return (
    <>
      {RAIL_LABELS[intent.rail]}
      {intent.sandbox ? (
        <Box component="span" sx={{ ml: 0.75, px: 0.5, borderRadius: 0.5, border: 1, borderColor: 'divider', fontSize: '0.7rem', color: 'text.secondary', verticalAlign: 'middle' }}>
          sandbox
        </Box>
      ) : null}
    </>
  );
}

/** A paid call's protocol; nothing for a payment made any other way. */
function ProtocolChip({ intent }: { intent: PaymentIntent }) {
  if (!intent.protocol) return null;
  return <Chip size="small" variant="outlined" label={PROTOCOL_LABELS[intent.protocol]} data-testid="payment-protocol" />;
}
