// One payment waiting for the owner: what, who, how much, the rules that asked for approval,
// the time left, and Approve / Reject (with a note) / the payment's page.
import CheckRounded from '@mui/icons-material/CheckRounded';
import CloseRounded from '@mui/icons-material/CloseRounded';
import { Box, Button, Card, CardActions, CardContent, Chip, Link, Stack, Typography } from '@mui/material';
import { useCallback, useId, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import type { FiredRule, PaymentIntent } from '../api/payment-types';
import { usePaymentActions } from '../hooks/use-payment-actions';
import { amountDisplay, formatTableDate, paymentTitle, ruleLabel } from '../utils/format';
import { RAIL_LABELS } from '../utils/intent-labels';
import { AmountText } from './amount-text';
import { ExpiryCountdown } from './expiry-countdown';
import { paymentPath } from './payments-table';
import { RejectPaymentDialog } from './reject-payment-dialog';

export function ApprovalCard({ intent, agentName }: { intent: PaymentIntent; agentName: string }) {
  const { approve, reject, busy } = usePaymentActions(intent.id);
  const [acting, setActing] = useState<'approve' | 'reject' | null>(null);
  const [rejecting, setRejecting] = useState(false);
  const [expired, setExpired] = useState(false);
  const markExpired = useCallback(() => setExpired(true), []);
  const titleId = useId();

  const expiresAt = intent.approval?.expiresAt ?? intent.expiresAt;
  const reasons = approvalReasons(intent);
  const summary = `${amountDisplay(intent.amountExact).text} ${intent.currency} for "${paymentTitle(intent)}" by ${agentName}`;

  const act = async (kind: 'approve' | 'reject', run: () => Promise<boolean>) => {
    setActing(kind);
    try {
      return await run();
    } finally {
      setActing(null);
    }
  };

  return (
    <Card variant="outlined" component="article" aria-labelledby={titleId} data-testid="approval-row" data-intent-id={intent.id}>
      <CardContent sx={{ pb: 1 }}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 1, sm: 2 }} sx={{ justifyContent: 'space-between' }}>
          <Box sx={{ minWidth: 0 }}>
            <Typography id={titleId} variant="subtitle1" component="h2" sx={{ fontWeight: 700, overflowWrap: 'anywhere' }}>
              {paymentTitle(intent)}
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
              {[agentName, intent.merchant, RAIL_LABELS[intent.rail] + (intent.sandbox ? ' (sandbox)' : '')].filter(Boolean).join(' · ')}
            </Typography>
            <Typography variant="caption" color="text.secondary" component="p">
              Asked <time dateTime={intent.createdAt}>{formatTableDate(intent.createdAt)}</time>
            </Typography>
          </Box>
          <Stack sx={{ alignItems: { xs: 'flex-start', sm: 'flex-end' }, flexShrink: 0 }}>
            <Typography variant="h6" component="p" sx={{ fontWeight: 700, whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
              <AmountText amountExact={intent.amountExact} currency={intent.currency} />
            </Typography>
            {expiresAt ? <ExpiryCountdown expiresAt={expiresAt} onExpired={markExpired} /> : null}
          </Stack>
        </Stack>
        <Box sx={{ mt: 1.5 }}>
          <Typography variant="caption" color="text.secondary" component="h3" sx={{ fontWeight: 600, textTransform: 'uppercase', letterSpacing: 0.5 }}>
            Why it waits
          </Typography>
          {reasons.length > 0 ? (
            <Stack component="ul" spacing={0.5} sx={{ listStyle: 'none', p: 0, m: 0, mt: 0.5 }}>
              {reasons.map((rule, index) => (
                <Stack
                  component="li"
                  key={`${rule.code}-${index}`}
                  direction={{ xs: 'column', sm: 'row' }}
                  spacing={{ xs: 0.5, sm: 1 }}
                  sx={{ alignItems: { xs: 'flex-start', sm: 'baseline' } }}
                >
                  <Chip size="small" label={ruleLabel(rule)} title={rule.rule} variant="outlined" sx={{ flexShrink: 0, maxWidth: { xs: '100%', sm: '45%' } }} />
                  <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                    {rule.message}
                  </Typography>
                </Stack>
              ))}
            </Stack>
          ) : (
            <Typography variant="body2" color="text.secondary">
              No rule recorded why; the payment still needs your decision.
            </Typography>
          )}
        </Box>
      </CardContent>
      <CardActions disableSpacing sx={{ px: 2, pb: 2, pt: 0, flexWrap: 'wrap', gap: 1 }}>
        <Button
          variant="contained"
          color="success"
          startIcon={<CheckRounded />}
          disabled={busy || expired}
          onClick={() => void act('approve', approve)}
          aria-describedby={titleId}
        >
          {acting === 'approve' ? 'Approving...' : 'Approve'}
        </Button>
        <Button variant="outlined" color="error" startIcon={<CloseRounded />} disabled={busy || expired} onClick={() => setRejecting(true)} aria-describedby={titleId}>
          Reject
        </Button>
        <Box sx={{ flexGrow: 1 }} />
        <Link component={RouterLink} to={paymentPath(intent.id)} underline="hover" aria-describedby={titleId} sx={{ fontWeight: 600 }}>
          View payment
        </Link>
      </CardActions>
      <RejectPaymentDialog
        open={rejecting}
        summary={`Reject ${summary}`}
        busy={acting === 'reject'}
        onClose={() => setRejecting(false)}
        onReject={(note) => act('reject', () => reject(note))}
      />
    </Card>
  );
}

/** The enforced rules that asked for approval; without them, every enforced rule that fired. */
function approvalReasons(intent: PaymentIntent): FiredRule[] {
  const fired = (intent.policyDecision?.fired ?? []).filter((rule) => !rule.shadow);
  const asking = fired.filter((rule) => rule.outcome === 'require_approval');
  return asking.length > 0 ? asking : fired;
}
