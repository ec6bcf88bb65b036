// One budget request waiting for the owner: the agent, its reason, the amount asked, the cap
// per payment, the expiry and the scope, and Approve (the grant dialog) / Reject (with a note).
import CheckRounded from '@mui/icons-material/CheckRounded';
import CloseRounded from '@mui/icons-material/CloseRounded';
import { Box, Button, Card, CardActions, CardContent, Stack, Typography } from '@mui/material';
import { useId, useState } from 'react';
import { Term } from '../../../shared/components/term';
import { scopeText } from '../../../shared/payment-sessions/session-text';
import type { PaymentSession } from '../api/payment-types';
import { useSessionDecisions } from '../hooks/use-session-decisions';
import { formatTableDate } from '../utils/format';
import { AmountText } from './amount-text';
import { GrantBudgetDialog } from './grant-budget-dialog';
import { RejectBudgetDialog } from './reject-budget-dialog';

export function BudgetRequestCard({ session, agentName }: { session: PaymentSession; agentName: string }) {
  const { grant, reject, busy } = useSessionDecisions(session.id);
  const [dialog, setDialog] = useState<'grant' | 'reject' | null>(null);
  const titleId = useId();

  return (
    <Card variant="outlined" component="article" aria-labelledby={titleId} data-testid="budget-request" data-session-id={session.id}>
      <CardContent sx={{ pb: 1 }}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 1, sm: 2 }} sx={{ justifyContent: 'space-between' }}>
          <Box sx={{ minWidth: 0 }}>
            <Typography id={titleId} variant="subtitle1" component="h3" sx={{ fontWeight: 700, overflowWrap: 'anywhere' }}>
              Budget for {agentName}
            </Typography>
            <Typography variant="body2" sx={{ overflowWrap: 'anywhere', mt: 0.5 }}>
              {session.reason ?? 'No reason given.'}
            </Typography>
            <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 0.5 }}>
              Asked <time dateTime={session.createdAt}>{formatTableDate(session.createdAt)}</time>
            </Typography>
          </Box>
          <Typography variant="h6" component="p" sx={{ fontWeight: 700, whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums', flexShrink: 0 }}>
            <AmountText amountExact={session.totalExact} currency="USDC" />
          </Typography>
        </Stack>
        <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'max-content 1fr' }, columnGap: 2, rowGap: 0.5, m: 0, mt: 1.5 }}>
          <Term label="Per payment">{session.perPaymentMaxExact ? <AmountText amountExact={session.perPaymentMaxExact} currency="USDC" /> : 'No cap'}</Term>
          <Term label="Ends">
            <time dateTime={session.expiresAt}>{formatTableDate(session.expiresAt)}</time>
          </Term>
          <Term label="Scope">{scopeText(session.scope)}</Term>
        </Box>
      </CardContent>
      <CardActions disableSpacing sx={{ px: 2, pb: 2, pt: 0, flexWrap: 'wrap', gap: 1 }}>
        <Button variant="contained" color="success" startIcon={<CheckRounded />} disabled={busy} onClick={() => setDialog('grant')} aria-describedby={titleId}>
          Approve
        </Button>
        <Button variant="outlined" color="error" startIcon={<CloseRounded />} disabled={busy} onClick={() => setDialog('reject')} aria-describedby={titleId}>
          Reject
        </Button>
      </CardActions>
      <GrantBudgetDialog open={dialog === 'grant'} session={session} agentName={agentName} busy={busy} onClose={() => setDialog(null)} onGrant={grant} />
      <RejectBudgetDialog open={dialog === 'reject'} agentName={agentName} busy={busy} onClose={() => setDialog(null)} onReject={reject} />
    </Card>
  );
}
