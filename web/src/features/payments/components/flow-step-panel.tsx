// The panel beside the drawing (below it on phones): the selected step, its state, the
// workflow's own words about it, every round it ran, and what the step is about: the rules
// that fired at the gate, the owner's decision, the rail and its reference, a paid call's
// protocol (x402 or MPP) and the signature on its paid request, the on-chain transaction and the
// signed x402 authorisation (over MPP: the seller's challenge, the credential sent, decoded, and
// the seller's receipt), the amounts held, captured or released, and the webhook deliveries.
import { Box, Card, CardContent, Chip, Divider, Link, Stack, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import type { PaymentDetail } from '../hooks/use-payment-detail';
import type { FlowStep } from '../utils/flow-steps';
import { formatDateTime, fullPrecision, humanize, shortHex, signedAmount } from '../utils/flow-format';
import { PROTOCOL_LABELS, RAIL_LABELS } from '../utils/intent-labels';
import { ExpiryCountdown } from './expiry-countdown';
import { ExternalLink, FieldList, Mono, type FieldRow } from './flow-fields';
import { stateColor } from './flow-node';
import { MppPaymentContent } from './mpp-payment-content';
import { RequestSignatureContent } from './request-signature-content';

const STATE_WORDS = { waiting: 'Waiting', running: 'Running', completed: 'Completed', failed: 'Failed', skipped: 'Skipped' } as const;

export function FlowStepPanel({ step, detail }: { step: FlowStep; detail: PaymentDetail }) {
  return (
    <Card variant="outlined" component="section" aria-labelledby="flow-step-title" data-testid="flow-step-panel" data-step={step.id} sx={{ height: '100%' }}>
      <CardContent>
        <Typography variant="overline" color="text.secondary" component="p" sx={{ lineHeight: 1.5 }}>
          Step details
        </Typography>
        <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5 }}>
          <Typography id="flow-step-title" variant="h6" component="h2" sx={{ fontWeight: 700 }}>
            {step.title}
          </Typography>
          <Chip
            size="small"
            variant="outlined"
            label={step.caption}
            data-state={step.state}
            // The state's colour on the border only: the text keeps the theme's contrast.
            sx={(theme) => ({ borderColor: step.state === 'waiting' ? theme.palette.text.secondary : stateColor(theme, step.state), borderWidth: 2, fontWeight: 600 })}
          />
        </Stack>
        {step.at && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
            {formatDateTime(step.at)}
          </Typography>
        )}
        {/* The identity node is no workflow step: its content below says it all. */}
        {step.detail && step.id !== 'identity' && (
          <Typography variant="body2" sx={{ mt: 1, overflowWrap: 'anywhere' }}>
            <Box component="span" sx={{ color: 'text.secondary' }}>
              Workflow:{' '}
            </Box>
            {step.detail}
          </Typography>
        )}
        <Divider sx={{ my: 2 }} />
        <StepContent step={step} detail={detail} />
        {step.history.length > 1 && (
          <Box sx={{ mt: 2 }}>
            <Typography variant="subtitle2" component="h3" gutterBottom>
              Rounds
            </Typography>
            <Box component="ol" sx={{ m: 0, pl: 2.5 }}>
              {step.history.map((record, index) => (
                <Typography component="li" variant="body2" key={`${record.at}-${index}`} sx={{ overflowWrap: 'anywhere' }}>
                  {STATE_WORDS[record.status]} at {formatDateTime(record.at)}
                  {record.detail ? `: ${record.detail}` : ''}
                </Typography>
              ))}
            </Box>
          </Box>
        )}
      </CardContent>
    </Card>
  );
}

function StepContent({ step, detail }: { step: FlowStep; detail: PaymentDetail }) {
  const { intent, rail } = detail;
  switch (step.id) {
    case 'intent.created':
      return (
        <FieldList
          dense
          rows={[
            { label: 'Amount', value: `${fullPrecision(intent.amountExact)} ${intent.currency}` },
            { label: 'Created by', value: intent.createdBy === 'agent' ? `Agent ${detail.agent.name}` : 'Owner' },
            { label: 'Created', value: formatDateTime(intent.createdAt) },
            { label: 'Idempotency key', value: <Mono>{intent.idempotencyKey}</Mono> },
          ]}
        />
      );
    case 'policy_gate':
      return <GateContent detail={detail} />;
    case 'approval':
      return <ApprovalContent detail={detail} />;
    case 'intent.approved':
      return <EventContent detail={detail} type="intent.approved" empty="The payment has not been approved to run." />;
    case 'rail_selection':
      return rail ? (
        <FieldList
          dense
          rows={[
            { label: 'Rail', value: <RailName rail={rail.rail} sandbox={rail.sandbox} /> },
            ...protocolRows(intent.protocol),
            { label: 'Reference', value: <Mono>{rail.reference}</Mono> },
            { label: 'Status', value: rail.status },
          ]}
        />
      ) : (
        <FieldList dense rows={[{ label: 'Rail', value: <RailName rail={intent.rail} sandbox={intent.sandbox} /> }, ...protocolRows(intent.protocol)]} />
      );
    case 'reserve':
      return <EntriesContent detail={detail} kind="hold" empty="No funds are held for this payment." extra={[{ label: 'Held at', value: formatDateTime(intent.reservedAt) }]} />;
    case 'identity':
      return <IdentityContent step={step} detail={detail} />;
    case 'execute':
      return <ExecuteContent detail={detail} answered={step.state === 'completed' || step.state === 'failed'} />;
    case 'capture':
      return <EntriesContent detail={detail} kind="capture" empty="Nothing has been captured." extra={[{ label: 'Settled at', value: formatDateTime(intent.settledAt) }]} />;
    case 'release':
      return (
        <EntriesContent
          detail={detail}
          kind="release"
          empty="Nothing has been released: held funds are released only when a payment fails."
          extra={intent.failureMessage ? [{ label: 'Why', value: intent.failureMessage }] : []}
        />
      );
    case 'settlement.completed':
      return <EventContent detail={detail} type="settlement.completed" empty="The payment has not settled." />;
    case 'audit':
      return <AuditContent detail={detail} />;
    case 'webhooks':
      return <WebhooksContent detail={detail} />;
  }
}

function RailName({ rail, sandbox }: { rail: PaymentDetail['intent']['rail']; sandbox: boolean }) {
  return (
    <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
      {RAIL_LABELS[rail]}
      {sandbox && <Chip size="small" label="Sandbox" variant="outlined" />}
    </Box>
  );
}

/** A paid call's wire protocol, as a row of the rail's fields; none for other payments. */
function protocolRows(protocol: PaymentDetail['intent']['protocol']): FieldRow[] {
  if (!protocol) return [];
  return [{ label: 'Protocol', value: <span data-testid="rail-protocol">{protocol === 'mpp' ? 'MPP (Machine Payments Protocol)' : PROTOCOL_LABELS[protocol]}</span> }];
}

function GateContent({ detail }: { detail: PaymentDetail }) {
  const decision = detail.intent.policyDecision;
  if (!decision) return <Empty>The gate has not evaluated this payment yet.</Empty>;
  return (
    <Stack spacing={1.5}>
      <FieldList
        dense
        rows={[
          { label: 'Decision', value: decision.decision.replace('_', ' ') },
          { label: 'Evaluated', value: formatDateTime(decision.evaluatedAt) },
          ...(detail.intent.kyaTier ? [{ label: 'KYA tier asked', value: detail.intent.kyaTier }] : []),
          ...(detail.intent.geography ? [{ label: 'Country', value: detail.intent.geography }] : []),
        ]}
      />
      <Typography variant="subtitle2" component="h3">
        Rules that fired
      </Typography>
      {decision.fired.length === 0 ? (
        <Empty>No rule fired: the spending rules, policies and KYA caps all allowed it.</Empty>
      ) : (
        <Stack component="ul" spacing={1} sx={{ m: 0, p: 0, listStyle: 'none' }} data-testid="fired-rules">
          {decision.fired.map((rule, index) => (
            <Box component="li" key={`${rule.code}-${index}`} sx={{ border: 1, borderColor: 'divider', borderRadius: 1.5, p: 1 }}>
              <Stack direction="row" spacing={0.75} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                <Typography variant="body2" sx={{ fontWeight: 700 }}>
                  {rule.rule}
                </Typography>
                <Chip size="small" label={rule.outcome === 'deny' ? 'Deny' : 'Requires approval'} variant="outlined" />
                {rule.shadow && <Chip size="small" label="Shadow: not enforced" variant="outlined" />}
              </Stack>
              <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5, overflowWrap: 'anywhere' }}>
                {rule.message}
              </Typography>
            </Box>
          ))}
        </Stack>
      )}
      {decision.shadow.length > 0 && (
        <>
          <Typography variant="subtitle2" component="h3">
            Shadow policies
          </Typography>
          <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
            {decision.shadow.map((policy) => (
              <Typography component="li" variant="body2" key={policy.policyId}>
                {policy.name} (v{policy.version}) would have decided: {policy.decision.replace('_', ' ')}
              </Typography>
            ))}
          </Box>
        </>
      )}
    </Stack>
  );
}

function ApprovalContent({ detail }: { detail: PaymentDetail }) {
  const approval = detail.intent.approval;
  if (!approval) return <Empty>Not required: the gate let this payment through without the owner.</Empty>;
  return (
    <FieldList
      dense
      rows={[
        { label: 'Decision', value: approval.status === 'pending' ? 'Waiting for the owner' : approval.status },
        approval.status === 'pending'
          ? { label: 'Time left', value: <ExpiryCountdown expiresAt={approval.expiresAt} /> }
          : { label: 'Decided', value: formatDateTime(approval.decidedAt) },
        { label: 'Expires', value: formatDateTime(approval.expiresAt) },
        ...(approval.reason ? [{ label: 'Note', value: approval.reason }] : []),
      ]}
    />
  );
}

function EventContent({ detail, type, empty }: { detail: PaymentDetail; type: string; empty: string }) {
  const event = detail.events.find((candidate) => candidate.type === type);
  if (!event) return <Empty>{empty}</Empty>;
  return (
    <FieldList
      dense
      rows={[
        { label: 'Event', value: type },
        { label: 'At', value: formatDateTime(event.createdAt) },
        { label: 'Event id', value: <Mono>{event.id}</Mono> },
      ]}
    />
  );
}

function EntriesContent({ detail, kind, empty, extra }: { detail: PaymentDetail; kind: 'hold' | 'capture' | 'release'; empty: string; extra: FieldRow[] }) {
  const entries = detail.ledgerEntries.filter((entry) => entry.type.includes(kind));
  const shown = extra.filter((row) => row.value !== '' && row.value !== null && row.value !== undefined);
  return (
    <Stack spacing={1.5}>
      {entries.length === 0 ? (
        <Empty>{empty}</Empty>
      ) : (
        <FieldList
          dense
          rows={entries.map((entry, index) => ({
            label: `${humanize(entry.account)} account${entries.length > 2 ? ` (${index + 1})` : ''}`,
            value: <Mono>{`${signedAmount(entry.amount)} ${entry.currency}`}</Mono>,
          }))}
        />
      )}
      {shown.length > 0 && <FieldList dense rows={shown} />}
    </Stack>
  );
}

/**
 * An x402 batch-settlement channel: one voucher per paid call. The payment's amount is the
 * deposit until the channel closes, then what the chain says the seller claimed.
 */
function VouchersContent({ vouchers, currency }: { vouchers: PaymentDetail['vouchers']; currency: string }) {
  return (
    <>
      <Typography variant="subtitle2" component="h3">
        Channel vouchers ({vouchers.length})
      </Typography>
      <Typography variant="body2" color="text.secondary">
        One per paid call; the seller may claim at most the last cumulative amount.
      </Typography>
      {/* Scrolls when long: focusable, so a keyboard can scroll it too. */}
      <Stack component="ol" tabIndex={0} aria-label="Channel vouchers" spacing={0.5} sx={{ m: 0, p: 0, listStyle: 'none', maxHeight: 240, overflowY: 'auto' }} data-testid="channel-vouchers">
        {vouchers.map((voucher) => (
          <Box component="li" key={voucher.cumulative} sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'baseline' }}>
            <Mono>{`${fullPrecision(voucher.amount)} ${currency}`}</Mono>
            <Typography variant="body2" color="text.secondary">
              {`total ${fullPrecision(voucher.cumulative)} · ${formatDateTime(voucher.createdAt)}`}
            </Typography>
            <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
              {voucher.resource}
            </Typography>
          </Box>
        ))}
      </Stack>
    </>
  );
}

/** The paid request of an x402 payment: signed, not sent yet, never sent, or sent unsigned (flow-steps.ts identityState). */
function IdentityContent({ step, detail }: { step: FlowStep; detail: PaymentDetail }) {
  const signature = detail.rail?.requestSignature ?? null;
  if (signature) return <RequestSignatureContent signature={signature} />;
  if (step.state === 'waiting') return <Empty>The paid request has not been sent yet: it goes to the seller once the payment is held and signed.</Empty>;
  if (step.detail === 'not reached') return <Empty>The payment ended before its paid request was sent.</Empty>;
  return <RequestSignatureContent signature={null} />;
}

/** `answered`: the rail has answered, so an x402 paid request without a signature went out unsigned. */
function ExecuteContent({ detail, answered }: { detail: PaymentDetail; answered: boolean }) {
  const { rail, intent } = detail;
  if (!rail) return <Empty>The payment has not reached its rail.</Empty>;
  const authorization = rail.authorization;
  return (
    <Stack spacing={1.5}>
      <FieldList
        dense
        rows={[
          { label: 'Rail', value: <RailName rail={rail.rail} sandbox={rail.sandbox} /> },
          ...protocolRows(intent.protocol),
          { label: 'Reference', value: <Mono>{rail.reference}</Mono> },
          { label: 'Status', value: rail.status },
          ...(rail.transactionHash
            ? [
                {
                  label: 'Transaction',
                  value: rail.explorerUrl ? (
                    <ExternalLink href={rail.explorerUrl}>
                      <Mono>{shortHex(rail.transactionHash, 10, 8)}</Mono>
                    </ExternalLink>
                  ) : (
                    <Mono>{rail.transactionHash}</Mono>
                  ),
                },
              ]
            : []),
          ...(rail.declineCode || rail.declineMessage ? [{ label: 'Declined', value: [rail.declineCode, rail.declineMessage].filter(Boolean).join(': ') }] : []),
          ...(intent.failureMessage && intent.status === 'failed' ? [{ label: 'Failure', value: intent.failureMessage }] : []),
        ]}
      />
      {rail.transactionHash && !rail.explorerUrl && (
        <Typography variant="body2" color="text.secondary">
          The sandbox chain has no public block explorer.
        </Typography>
      )}
      {rail.mpp && <MppPaymentContent mpp={rail.mpp} currency={intent.currency} />}
      {authorization && !rail.mpp && (
        <>
          <Typography variant="subtitle2" component="h3">
            Signed x402 authorisation
          </Typography>
          <FieldList
            dense
            rows={[
              { label: 'Payer (from)', value: <Mono>{authorization.from}</Mono> },
              { label: 'Payee (to)', value: <Mono>{authorization.to}</Mono> },
              { label: 'Scheme', value: authorization.scheme === 'upto' ? 'upto (the seller settles what was used, at most the maximum)' : 'exact' },
              authorization.scheme === 'upto'
                ? { label: 'Maximum', value: <Mono>{`${fullPrecision(authorization.value)} ${intent.currency}`}</Mono> }
                : { label: 'Value', value: <Mono>{`${fullPrecision(authorization.value)} ${intent.currency}`}</Mono> },
              // An authorisation valid from the epoch (upto signs validAfter 0) is valid from its signing.
              { label: 'Valid from', value: Date.parse(authorization.validAfter) === 0 ? 'When signed' : formatDateTime(authorization.validAfter) },
              { label: 'Valid until', value: formatDateTime(authorization.validBefore) },
              { label: 'Nonce', value: <Mono>{shortHex(authorization.nonce, 10, 8)}</Mono> },
            ]}
          />
        </>
      )}
      {rail.rail === 'x402-base' && (rail.requestSignature || answered) && <RequestSignatureContent signature={rail.requestSignature} />}
      {rail.sellerReceipt && <SellerReceiptContent receipt={rail.sellerReceipt} />}
      {detail.vouchers.length > 0 && <VouchersContent vouchers={detail.vouchers} currency={intent.currency} />}
    </Stack>
  );
}

/** The seller's signed receipt (x402 offer-receipt), as Purser checked it against the payment. */
function SellerReceiptContent({ receipt }: { receipt: NonNullable<NonNullable<PaymentDetail['rail']>['sellerReceipt']> }) {
  return (
    <>
      <Typography variant="subtitle2" component="h3">
        Seller&apos;s receipt
      </Typography>
      <FieldList
        dense
        rows={[
          {
            label: 'Checked',
            value: <Chip size="small" color={receipt.verified ? 'success' : 'warning'} label={receipt.verified ? 'Verified: it matches this payment' : 'Not verified'} />,
          },
          { label: 'Format', value: receipt.format === 'eip712' ? 'EIP-712 signature' : 'JWS' },
          ...(receipt.signer ? [{ label: 'Signed by', value: <Mono>{receipt.signer}</Mono> }] : []),
          ...receipt.problems.map((problem, index) => ({ label: index === 0 ? 'Why not' : '', value: problem })),
        ]}
      />
    </>
  );
}

function AuditContent({ detail }: { detail: PaymentDetail }) {
  const entries = detail.auditEntries;
  if (entries.length === 0) return <Empty>No audit entry yet.</Empty>;
  const last = entries[entries.length - 1]!;
  return (
    <FieldList
      dense
      rows={[
        { label: 'Entries', value: String(entries.length) },
        { label: 'Latest', value: `${humanize(last.action)} by ${last.actor}` },
        { label: 'At', value: formatDateTime(last.at) },
        { label: 'Chain entry', value: `#${last.chainSeq}` },
      ]}
    />
  );
}

function WebhooksContent({ detail }: { detail: PaymentDetail }) {
  const deliveries = detail.webhookDeliveries;
  return (
    <Stack spacing={1.5}>
      {deliveries.length === 0 ? (
        <Empty>No webhook endpoint received this payment’s events.</Empty>
      ) : (
        <Stack component="ul" spacing={1} sx={{ m: 0, p: 0, listStyle: 'none' }}>
          {deliveries.map((delivery) => (
            <Box component="li" key={delivery.id} sx={{ border: 1, borderColor: 'divider', borderRadius: 1.5, p: 1 }}>
              <Typography variant="body2" sx={{ fontWeight: 700 }}>
                {delivery.eventType}: {delivery.status === 'succeeded' ? 'delivered' : delivery.status}
              </Typography>
              <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                {delivery.endpointUrl}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {delivery.attempts} attempt{delivery.attempts === 1 ? '' : 's'}
                {delivery.lastStatusCode !== null ? `, last answer ${delivery.lastStatusCode}` : ''}
              </Typography>
            </Box>
          ))}
        </Stack>
      )}
      <Link component={RouterLink} to="/dashboard/webhooks" variant="body2">
        Webhook endpoints and delivery logs
      </Link>
    </Stack>
  );
}

function Empty({ children }: { children: string }) {
  return (
    <Typography variant="body2" color="text.secondary">
      {children}
    </Typography>
  );
}
