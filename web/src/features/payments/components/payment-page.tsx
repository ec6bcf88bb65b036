// Route '/dashboard/payments/:intentId': one payment, live. The drawing of its workflow
// (flow-diagram.tsx) lights each step as realtime.intentProgress reports it; the panel beside
// it shows the selected step (a paid call's protocol, x402 or MPP, is named in the header, the
// drawing's rail node and the panel); below, the intent's fields, events, ledger entries, webhook
// deliveries and audit entries (intents.detail, refreshed on every progress message) and, once
// it has settled, its signed receipt (payment-receipt.tsx); above, approve, reject and cancel
// where the state allows. Unknown ids and other owners' payments are the same "Payment not found".
import ArrowBackRounded from '@mui/icons-material/ArrowBackRounded';
import { Box, Button, Card, CardContent, Chip, Container, Link, Skeleton, Stack, Typography } from '@mui/material';
import { useMemo, useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { RetryAlert } from '../../../shared/components/retry-alert';
import { ASSISTANT_BUTTON_CLEARANCE } from '../../../shared/layout/assistant-button-space';
import { usePaymentDetail, type PaymentDetail, type PaymentProgress } from '../hooks/use-payment-detail';
import { usePaymentProgress, type ProgressConnection } from '../hooks/use-payment-progress';
import { errorMessage, isNotFoundError } from '../utils/flow-errors';
import { formatDateTime, fullPrecision } from '../utils/flow-format';
import { defaultSelectedStep, isTerminalStatus, mapFlowSteps, stepsFromAudit, type FlowNodeId } from '../utils/flow-steps';
import { paymentTitle } from '../utils/format';
import { PROTOCOL_LABELS, RAIL_LABELS } from '../utils/intent-labels';
import { ExpiryCountdown } from './expiry-countdown';
import { FlowActions } from './flow-actions';
import { FlowDiagram } from './flow-diagram';
import { FlowRecords } from './flow-records';
import { FlowStepPanel } from './flow-step-panel';
import { IntentStatusChip } from './intent-status-chip';
import { PaymentSessionLine } from './payment-session-line';
import { PaymentReceipt } from './payment-receipt';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The panel's width beside the drawing on wide screens. */
const PANEL_WIDTH = 340;

export function PaymentPage() {
  const { intentId = '' } = useParams();
  return (
    <Container component="main" maxWidth="xl" sx={{ pt: { xs: 2, md: 3 }, pb: ASSISTANT_BUTTON_CLEARANCE }}>
      <title>Payment · Purser</title>
      <Link component={RouterLink} to="/dashboard/payments" underline="hover" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, mb: 2 }}>
        <ArrowBackRounded fontSize="small" aria-hidden />
        Payments
      </Link>
      {/* Not a UUID, so no payment's id: the server would only refuse its format. */}
      {UUID.test(intentId) ? <PaymentLoader key={intentId} intentId={intentId} /> : <NotFoundCard />}
    </Container>
  );
}

function PaymentLoader({ intentId }: { intentId: string }) {
  const detail = usePaymentDetail(intentId);
  // Opened once the payment is known to be the owner's: an unknown id gets the card, not a stream.
  const { progress, connection } = usePaymentProgress(intentId, detail.data !== undefined);

  if (detail.data) return <PaymentView detail={detail.data} progress={progress} connection={connection} />;
  if (detail.isPending) return <PaymentSkeleton />;
  if (isNotFoundError(detail.error)) return <NotFoundCard />;
  return (
    <RetryAlert onRetry={() => void detail.refetch()}>
      {errorMessage(detail.error, 'Unable to load this payment.')}
    </RetryAlert>
  );
}

function PaymentView({ detail, progress, connection }: { detail: PaymentDetail; progress: PaymentProgress | null; connection: ProgressConnection }) {
  const { intent } = detail;
  const steps = useMemo(
    () =>
      mapFlowSteps({
        progress,
        intentStatus: intent.status,
        approvalStatus: intent.approval?.status ?? null,
        webhookDeliveries: detail.webhookDeliveries,
        auditedSteps: stepsFromAudit(detail.auditEntries),
        // Only a paid call (x402 or MPP) sends the seller an HTTP request, signed as the agent or not.
        paidRequest: intent.rail === 'x402-base' ? { signature: detail.rail?.requestSignature ?? null } : null,
        protocol: intent.protocol,
      }),
    [progress, intent.status, intent.approval?.status, intent.rail, intent.protocol, detail.webhookDeliveries, detail.auditEntries, detail.rail?.requestSignature],
  );
  // Until the owner picks a step, the panel follows the payment.
  const [picked, setPicked] = useState<FlowNodeId | null>(null);
  const selected = picked ?? defaultSelectedStep(steps);
  const selectedStep = steps.find((step) => step.id === selected) ?? steps[0]!;

  return (
    <Stack spacing={3}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'flex-start', justifyContent: 'space-between' }}>
        <Box sx={{ minWidth: 0, flex: '1 1 320px' }}>
          <Typography variant="h4" component="h1" sx={{ fontWeight: 700, overflowWrap: 'anywhere', fontSize: { xs: '1.6rem', sm: '2rem' } }}>
            {paymentTitle(intent)}
          </Typography>
          <Stack direction="row" spacing={1} useFlexGap sx={{ mt: 1, alignItems: 'center', flexWrap: 'wrap' }}>
            <Typography component="p" sx={{ fontSize: '1.25rem', fontWeight: 700 }} data-testid="payment-amount">
              {fullPrecision(intent.amountExact)} {intent.currency}
            </Typography>
            <IntentStatusChip status={intent.status} />
            <Chip size="small" variant="outlined" label={`${RAIL_LABELS[intent.rail]}${intent.sandbox ? ' · sandbox' : ''}`} />
            {intent.protocol && <Chip size="small" variant="outlined" label={`Paid over ${PROTOCOL_LABELS[intent.protocol]}`} data-testid="payment-protocol" />}
            {!isTerminalStatus(intent.status) && <LiveIndicator connection={connection} />}
          </Stack>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            By{' '}
            <Link component={RouterLink} to={`/dashboard/agents/${detail.agent.id}`}>
              {detail.agent.name}
            </Link>
            {' · '}created {formatDateTime(intent.createdAt)}
            {intent.approval?.status === 'pending' && (
              <>
                {' · '}waiting for your approval, <ExpiryCountdown expiresAt={intent.approval.expiresAt} />
              </>
            )}
          </Typography>
          {intent.paymentSessionId ? <PaymentSessionLine sessionId={intent.paymentSessionId} agentId={detail.agent.id} /> : null}
        </Box>
        <FlowActions detail={detail} />
      </Box>

      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: `minmax(0, 1fr) ${PANEL_WIDTH}px` }, alignItems: 'start' }}>
        <Box sx={{ minWidth: 0 }}>
          <FlowDiagram steps={steps} selected={selected} onSelect={setPicked} />
        </Box>
        <FlowStepPanel step={selectedStep} detail={detail} />
      </Box>

      {intent.status === 'settled' && <PaymentReceipt intentId={intent.id} />}

      <FlowRecords detail={detail} />
    </Stack>
  );
}

/** Whether the drawing follows the payment as it moves (shown until the payment has ended). */
function LiveIndicator({ connection }: { connection: ProgressConnection }) {
  const text = connection === 'live' ? 'Live' : connection === 'error' ? 'Reconnecting…' : 'Connecting…';
  return (
    <Box role="status" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.75, color: 'text.secondary', typography: 'body2' }} data-testid="payment-live">
      <Box
        component="span"
        aria-hidden
        sx={{
          width: 8,
          height: 8,
          borderRadius: '50%',
          bgcolor: connection === 'live' ? 'success.main' : connection === 'error' ? 'error.main' : 'warning.main',
        }}
      />
      {text}
    </Box>
  );
}

function NotFoundCard() {
  return (
    <Card variant="outlined" component="section" aria-labelledby="payment-not-found">
      <CardContent>
        <Typography id="payment-not-found" variant="h5" component="h1" gutterBottom>
          Payment not found
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          There is no payment with this id among yours.
        </Typography>
        <Button component={RouterLink} to="/dashboard/payments" variant="outlined">
          Back to payments
        </Button>
      </CardContent>
    </Card>
  );
}

function PaymentSkeleton() {
  return (
    <Box aria-busy="true" aria-label="Loading payment" role="status">
      <Skeleton variant="text" width="45%" height={48} />
      <Skeleton variant="text" width="30%" />
      <Box sx={{ display: 'grid', gap: 2, mt: 3, gridTemplateColumns: { xs: '1fr', lg: `1fr ${PANEL_WIDTH}px` } }}>
        <Skeleton variant="rounded" height={280} />
        <Skeleton variant="rounded" height={280} />
      </Box>
      <Skeleton variant="rounded" height={240} sx={{ mt: 3 }} />
    </Box>
  );
}
