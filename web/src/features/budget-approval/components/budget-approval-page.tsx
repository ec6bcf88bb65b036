// Route '/approve/:token': the one-time approval link of an agent's budget request (issue 43).
// The agent hands its owner this link; signed-out owners sign in first and come back here
// (RequireSession returnHere). The page shows the request and lets the owner grant it (for less,
// or until sooner) or reject it with a note (paymentSessions.decideByLink), which uses the link
// up. A link used, expired, not theirs or whose request was decided elsewhere gets a sentence
// that says so, and no form. The token sits in the path: the server's Referrer-Policy is
// no-referrer and the page loads nothing from another origin, so it is not passed on.
import { Alert, Box, Button, Card, CardContent, Skeleton, Stack, Typography } from '@mui/material';
import { useMutation, useQuery } from '@tanstack/react-query';
import type { PaymentSessionView } from '@purser/core';
import { useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { BrandLink } from '../../../shared/components/brand-link';
import { RetryAlert } from '../../../shared/components/retry-alert';
import { ASSISTANT_BUTTON_CLEARANCE } from '../../../shared/layout/assistant-button-space';
import { useTRPC } from '../../../shared/trpc';
import type { ApprovalInput } from '../utils/approval-form';
import { formatUsd, formatWhen } from '../utils/format';
import { appCodeOf, LINK_PROBLEMS, linkProblemOf, serverMessage, type LinkProblem } from '../utils/link-problems';
import { BudgetApprovalForm } from './budget-approval-form';

const TOKEN_MAX_LENGTH = 200;

export function BudgetApprovalPage() {
  const token = useParams().token?.trim() ?? '';
  return (
    <Box
      component="main"
      sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', px: { xs: 1.5, sm: 2 }, pt: { xs: 2, sm: 4 }, pb: { xs: ASSISTANT_BUTTON_CLEARANCE.xs, sm: 4 }, bgcolor: 'background.default' }}
    >
      <title>Approve a budget · Purser</title>
      <Stack spacing={2} sx={{ width: '100%', maxWidth: 640 }}>
        <Card variant="outlined">
          <CardContent sx={{ p: { xs: 2, sm: 4 } }}>
            <Stack spacing={3}>
              <BrandLink />
              {token === '' || token.length > TOKEN_MAX_LENGTH ? <LinkProblemNotice problem="notFound" /> : <Approval token={token} />}
            </Stack>
          </CardContent>
        </Card>
      </Stack>
    </Box>
  );
}

function Approval({ token }: { token: string }) {
  const trpc = useTRPC();
  const link = useQuery({ ...trpc.paymentSessions.approvalLink.queryOptions({ token }), retry: false, refetchOnWindowFocus: false, staleTime: Infinity });
  const decideByLink = useMutation(trpc.paymentSessions.decideByLink.mutationOptions());
  const [busy, setBusy] = useState<'approve' | 'reject' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [problem, setProblem] = useState<LinkProblem | null>(null);
  const [decided, setDecided] = useState<PaymentSessionView | null>(null);

  const decide = async (input: ApprovalInput) => {
    setBusy(input.approve ? 'approve' : 'reject');
    setError(null);
    try {
      setDecided(await decideByLink.mutateAsync(input));
    } catch (failure) {
      // Used, expired or decided meanwhile: the page says which instead of the form.
      const refusal = linkProblemOf(failure);
      if (refusal) setProblem(refusal);
      else setError(serverMessage(failure, input.approve ? 'Could not approve the request. Try again.' : 'Could not reject the request. Try again.'));
    } finally {
      setBusy(null);
    }
  };

  if (decided && link.data) return <DecidedNotice session={decided} agentName={link.data.agentName} />;
  if (problem) return <LinkProblemNotice problem={problem} />;
  if (link.isPending) return <ApprovalSkeleton />;
  if (link.isError) {
    const refusal = linkProblemOf(link.error) ?? (appCodeOf(link.error) === 'VALIDATION_FAILED' ? 'notFound' : null);
    if (refusal) return <LinkProblemNotice problem={refusal} />;
    return <RetryAlert onRetry={() => void link.refetch()}>{serverMessage(link.error, 'Unable to load the budget request.')}</RetryAlert>;
  }
  return <BudgetApprovalForm token={token} link={link.data} busy={busy} error={error} onDecide={(input) => void decide(input)} />;
}

function DecidedNotice({ session, agentName }: { session: PaymentSessionView; agentName: string }) {
  const approved = session.status === 'open';
  return (
    <Stack spacing={2} component="section" aria-labelledby="approval-result-title">
      <Typography id="approval-result-title" variant="h5" component="h1" sx={{ fontWeight: 700 }}>
        {approved ? 'Budget approved' : 'Request rejected'}
      </Typography>
      <Alert severity={approved ? 'success' : 'info'} role="status">
        {approved
          ? `${agentName} may pay up to ${formatUsd(session.totalExact)} until ${formatWhen(session.expiresAt)}.${grantedOptions(session)}`
          : `${agentName} was told no${session.decisionNote ? `: “${session.decisionNote}”` : '.'}`}
      </Alert>
      <Box>
        <Button component={RouterLink} to="/dashboard/approvals" variant="outlined">
          Go to approvals
        </Button>
      </Box>
    </Stack>
  );
}

export function LinkProblemNotice({ problem }: { problem: LinkProblem }) {
  const { title, message } = LINK_PROBLEMS[problem];
  return (
    <Stack spacing={2} component="section" aria-labelledby="approval-problem-title">
      <Typography id="approval-problem-title" variant="h5" component="h1" sx={{ fontWeight: 700 }}>
        {title}
      </Typography>
      <Alert severity={problem === 'used' || problem === 'decided' ? 'info' : 'warning'}>{message}</Alert>
      <Box>
        <Button component={RouterLink} to="/dashboard/approvals" variant="outlined">
          Go to approvals
        </Button>
      </Box>
    </Stack>
  );
}

function ApprovalSkeleton() {
  return (
    <Box aria-busy="true" aria-label="Loading the budget request">
      <Skeleton variant="text" width="80%" height={40} />
      <Skeleton variant="text" width="60%" />
      <Skeleton variant="rounded" height={180} sx={{ my: 2 }} />
      <Skeleton variant="rounded" height={56} sx={{ mb: 2 }} />
      <Skeleton variant="rounded" height={80} />
    </Box>
  );
}

/** The options the grant took, as the sentence after the terms (none: nothing). */
function grantedOptions(session: PaymentSessionView): string {
  const all = session.allPayments ? ' Every one of its payments counts against it.' : '';
  const aside = session.reserve ? ` ${formatUsd(session.reservedExact)} of its balance is set aside for it.` : '';
  return all + aside;
}
