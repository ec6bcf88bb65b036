// The payment's records below its drawing, one tab each: the intent's fields and metadata,
// its events, its ledger entries, the webhook deliveries of its events and its audit entries.
// Tables scroll sideways inside their own frame on phones; the page never does.
import {
  Box,
  Card,
  Link,
  Stack,
  Tab,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Tabs,
  Typography,
} from '@mui/material';
import { useState, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import type { PaymentDetail } from '../hooks/use-payment-detail';
import { dataSummary, formatDateTime, fullPrecision, humanize, signedAmount } from '../utils/flow-format';
import { PROTOCOL_LABELS, RAIL_LABELS } from '../utils/intent-labels';
import { FieldList, Mono } from './flow-fields';
import { IntentStatusChip } from './intent-status-chip';

const TABS = ['details', 'events', 'ledger', 'webhooks', 'audit'] as const;
type TabName = (typeof TABS)[number];

export function FlowRecords({ detail }: { detail: PaymentDetail }) {
  const [tab, setTab] = useState<TabName>('details');
  const counts: Record<TabName, number | null> = {
    details: null,
    events: detail.events.length,
    ledger: detail.ledgerEntries.length,
    webhooks: detail.webhookDeliveries.length,
    audit: detail.auditEntries.length,
  };
  const labels: Record<TabName, string> = { details: 'Details', events: 'Events', ledger: 'Ledger', webhooks: 'Webhooks', audit: 'Audit' };

  return (
    <Card variant="outlined" component="section" aria-label="Payment records">
      <Tabs
        value={tab}
        onChange={(_, value: TabName) => setTab(value)}
        variant="scrollable"
        scrollButtons="auto"
        allowScrollButtonsMobile
        aria-label="Payment records"
        sx={{ borderBottom: 1, borderColor: 'divider', px: 1 }}
      >
        {TABS.map((name) => (
          <Tab
            key={name}
            value={name}
            id={`payment-tab-${name}`}
            aria-controls={`payment-tabpanel-${name}`}
            label={counts[name] === null ? labels[name] : `${labels[name]} (${counts[name]})`}
          />
        ))}
      </Tabs>
      {TABS.map((name) => (
        <Box key={name} role="tabpanel" id={`payment-tabpanel-${name}`} aria-labelledby={`payment-tab-${name}`} hidden={tab !== name} sx={{ p: { xs: 2, sm: 3 } }}>
          {tab === name && <TabContent name={name} detail={detail} />}
        </Box>
      ))}
    </Card>
  );
}

function TabContent({ name, detail }: { name: TabName; detail: PaymentDetail }) {
  switch (name) {
    case 'details':
      return <DetailsTab detail={detail} />;
    case 'events':
      return <EventsTab detail={detail} />;
    case 'ledger':
      return <LedgerTab detail={detail} />;
    case 'webhooks':
      return <WebhooksTab detail={detail} />;
    case 'audit':
      return <AuditTab detail={detail} />;
  }
}

function DetailsTab({ detail }: { detail: PaymentDetail }) {
  const { intent, agent } = detail;
  const metadata = Object.keys(intent.metadata).length ? JSON.stringify(intent.metadata, null, 2) : null;
  return (
    <Stack spacing={3}>
      <FieldList
        rows={[
          { label: 'Amount', value: <Mono>{fullPrecision(intent.amountExact)}</Mono> },
          { label: 'Currency', value: intent.currency },
          { label: 'Rail', value: `${RAIL_LABELS[intent.rail]}${intent.sandbox ? ' (sandbox)' : ''}` },
          ...(intent.protocol ? [{ label: 'Protocol', value: PROTOCOL_LABELS[intent.protocol] }] : []),
          { label: 'Status', value: <IntentStatusChip status={intent.status} /> },
          ...(intent.failureMessage ? [{ label: 'Failure', value: `${intent.failureMessage}${intent.failureCode ? ` (${intent.failureCode})` : ''}` }] : []),
          {
            label: 'Agent',
            value: (
              <Link component={RouterLink} to={`/dashboard/agents/${agent.id}`}>
                {agent.name}
              </Link>
            ),
          },
          { label: 'Purpose', value: intent.purpose },
          { label: 'Merchant', value: intent.merchant },
          { label: 'To address', value: intent.toAddress && <Mono>{intent.toAddress}</Mono> },
          { label: 'Category', value: intent.category },
          { label: 'Created', value: formatDateTime(intent.createdAt) },
          { label: 'Updated', value: formatDateTime(intent.updatedAt) },
          { label: 'Settled', value: formatDateTime(intent.settledAt) },
          { label: 'Idempotency key', value: <Mono>{intent.idempotencyKey}</Mono> },
          { label: 'Intent id', value: <Mono>{intent.id}</Mono> },
          { label: 'Workflow id', value: <Mono>{detail.workflow.workflowId}</Mono> },
        ]}
      />
      <Box>
        <Typography variant="subtitle2" component="h3" gutterBottom>
          Metadata
        </Typography>
        {metadata ? (
          <Box
            component="pre"
            tabIndex={0}
            aria-label="Metadata as JSON"
            sx={{
              m: 0,
              p: 1.5,
              borderRadius: 1.5,
              bgcolor: 'action.hover',
              overflowX: 'auto',
              fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
              fontSize: '0.8125rem',
            }}
          >
            {metadata}
          </Box>
        ) : (
          <Typography variant="body2" color="text.secondary">
            No metadata.
          </Typography>
        )}
      </Box>
    </Stack>
  );
}

function EventsTab({ detail }: { detail: PaymentDetail }) {
  if (detail.events.length === 0) return <Empty>No event yet.</Empty>;
  return (
    <RecordsTable label="Events" head={['Event', 'Time', 'Event id']}>
      {detail.events.map((event) => (
        <TableRow key={event.id}>
          <TableCell>{event.type}</TableCell>
          <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(event.createdAt)}</TableCell>
          <TableCell>
            <Mono>{event.id}</Mono>
          </TableCell>
        </TableRow>
      ))}
    </RecordsTable>
  );
}

function LedgerTab({ detail }: { detail: PaymentDetail }) {
  if (detail.ledgerEntries.length === 0) return <Empty>No ledger entry yet: nothing has been held or moved.</Empty>;
  return (
    <RecordsTable label="Ledger entries" head={['Type', 'Account', 'Amount', 'Currency', 'Time']} align={{ 2: 'right' }} testId="ledger-entries">
      {detail.ledgerEntries.map((entry, index) => (
        <TableRow key={`${entry.transactionId}-${index}`}>
          <TableCell>{humanize(entry.type)}</TableCell>
          <TableCell>{humanize(entry.account)}</TableCell>
          <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
            <Mono>{signedAmount(entry.amount)}</Mono>
          </TableCell>
          <TableCell>{entry.currency}</TableCell>
          <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(entry.createdAt)}</TableCell>
        </TableRow>
      ))}
    </RecordsTable>
  );
}

function WebhooksTab({ detail }: { detail: PaymentDetail }) {
  const link = (
    <Link component={RouterLink} to="/dashboard/webhooks" variant="body2">
      Webhook endpoints and delivery logs
    </Link>
  );
  if (detail.webhookDeliveries.length === 0) {
    return (
      <Stack spacing={1}>
        <Empty>No delivery: no webhook endpoint was subscribed to this payment’s events.</Empty>
        <Box>{link}</Box>
      </Stack>
    );
  }
  return (
    <Stack spacing={2}>
      <RecordsTable label="Webhook deliveries" head={['Event', 'Endpoint', 'Status', 'Attempts', 'Last status code', 'Created']}>
        {detail.webhookDeliveries.map((delivery) => (
          <TableRow key={delivery.id}>
            <TableCell>{delivery.eventType}</TableCell>
            <TableCell sx={{ maxWidth: 280, overflowWrap: 'anywhere' }}>{delivery.endpointUrl}</TableCell>
            <TableCell>{delivery.status === 'succeeded' ? 'Delivered' : humanize(delivery.status)}</TableCell>
            <TableCell>{delivery.attempts}</TableCell>
            <TableCell>{delivery.lastStatusCode ?? '—'}</TableCell>
            <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(delivery.createdAt)}</TableCell>
          </TableRow>
        ))}
      </RecordsTable>
      <Box>{link}</Box>
    </Stack>
  );
}

function AuditTab({ detail }: { detail: PaymentDetail }) {
  if (detail.auditEntries.length === 0) return <Empty>No audit entry yet.</Empty>;
  return (
    <RecordsTable label="Audit entries" head={['Entry', 'Action', 'Actor', 'Time', 'Data']}>
      {detail.auditEntries.map((entry) => (
        <TableRow key={entry.seq}>
          <TableCell sx={{ whiteSpace: 'nowrap' }}>#{entry.chainSeq}</TableCell>
          <TableCell>{entry.action}</TableCell>
          <TableCell sx={{ overflowWrap: 'anywhere' }}>{entry.actor}</TableCell>
          <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(entry.at)}</TableCell>
          <TableCell sx={{ minWidth: 200, overflowWrap: 'anywhere' }}>{dataSummary(entry.data)}</TableCell>
        </TableRow>
      ))}
    </RecordsTable>
  );
}

function RecordsTable({
  label,
  head,
  align = {},
  testId,
  children,
}: {
  label: string;
  head: readonly string[];
  align?: Record<number, 'right'>;
  testId?: string;
  children: ReactNode;
}) {
  return (
    // Focusable, so a keyboard can scroll it sideways on a phone.
    <TableContainer tabIndex={0} role="region" aria-label={label} sx={{ overflowX: 'auto' }}>
      <Table size="small" aria-label={label} data-testid={testId}>
        <TableHead>
          <TableRow>
            {head.map((column, index) => (
              <TableCell key={column} align={align[index]} sx={{ fontWeight: 700, whiteSpace: 'nowrap' }}>
                {column}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>{children}</TableBody>
      </Table>
    </TableContainer>
  );
}

function Empty({ children }: { children: string }) {
  return (
    <Typography variant="body2" color="text.secondary">
      {children}
    </Typography>
  );
}
