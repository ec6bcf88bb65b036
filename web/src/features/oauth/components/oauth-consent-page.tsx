// Route '/oauth/consent?request=<id>': where /oauth/authorize sends the owner's browser when an
// MCP host (or any OAuth client) asks to act as one of their agents. Signed-out owners sign in
// first and come back here (RequireSession returnHere). The owner approves (oauth.approve) or
// denies (oauth.deny); either way the browser goes to the URL the server answers: the client's
// redirect URI with a code, or with error=access_denied. A request that is unknown, another
// account's, expired or already decided gets a sentence that says so, and no form.
import { Alert, Box, Button, Card, CardContent, Skeleton, Stack, Typography } from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApproveOAuthRequestBody } from '@purser/core';
import { useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { BrandLink } from '../../../shared/components/brand-link';
import { RetryAlert } from '../../../shared/components/retry-alert';
import { ASSISTANT_BUTTON_CLEARANCE } from '../../../shared/layout/assistant-button-space';
import { useTRPC } from '../../../shared/trpc';
import { problemOfStatus, REQUEST_MESSAGES, type RequestProblem } from '../utils/consent-form';
import { serverMessage, trpcCode } from '../utils/trpc-errors';
import { ConsentForm } from './consent-form';
import { NewAgentDialog } from './new-agent-dialog';

/** Leaves the web app for the client's redirect URI (a module function, so tests can see where it went). */
export const leavePage = {
  assign(url: string): void {
    window.location.assign(url);
  },
};

export function OAuthConsentPage() {
  const [searchParams] = useSearchParams();
  const requestId = searchParams.get('request')?.trim() ?? '';
  return (
    <Box
      component="main"
      sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', px: { xs: 1.5, sm: 2 }, pt: { xs: 2, sm: 4 }, pb: { xs: ASSISTANT_BUTTON_CLEARANCE.xs, sm: 4 }, bgcolor: 'background.default' }}
    >
      <title>Connect an app · Purser</title>
      <Stack spacing={2} sx={{ width: '100%', maxWidth: 600 }}>
        <Card variant="outlined">
          <CardContent sx={{ p: { xs: 2, sm: 4 } }}>
            <Stack spacing={3}>
              <BrandLink />
              {requestId === '' || requestId.length > 100 ? <RequestProblemNotice problem={requestId === '' ? 'missing' : 'notFound'} /> : <Consent requestId={requestId} />}
            </Stack>
          </CardContent>
        </Card>
      </Stack>
    </Box>
  );
}

function Consent({ requestId }: { requestId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const request = useQuery({ ...trpc.oauth.authorizationRequest.queryOptions({ requestId }), retry: false, refetchOnWindowFocus: false });
  const agents = useQuery(trpc.agents.list.queryOptions());
  const approve = useMutation(trpc.oauth.approve.mutationOptions());
  const deny = useMutation(trpc.oauth.deny.mutationOptions());
  const [busy, setBusy] = useState<'approve' | 'deny' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [newAgentId, setNewAgentId] = useState<string | null>(null);

  const decide = async (decision: 'approve' | 'deny', run: () => Promise<{ redirectUrl: string }>) => {
    setBusy(decision);
    setError(null);
    try {
      const { redirectUrl } = await run();
      // The buttons stay locked while the browser leaves.
      leavePage.assign(redirectUrl);
    } catch (failure) {
      setBusy(null);
      const code = trpcCode(failure);
      // Decided elsewhere, expired or gone meanwhile: read it again, so the page says which.
      if (code === 'CONFLICT' || code === 'NOT_FOUND') void queryClient.invalidateQueries({ queryKey: trpc.oauth.authorizationRequest.queryKey({ requestId }) });
      setError(serverMessage(failure, decision === 'approve' ? 'Could not approve the request. Try again.' : 'Could not deny the request. Try again.'));
    }
  };

  if (request.isPending || agents.isPending) return <ConsentSkeleton />;
  if (request.isError) {
    if (trpcCode(request.error) === 'NOT_FOUND') return <RequestProblemNotice problem="notFound" />;
    return <RetryAlert onRetry={() => void request.refetch()}>{serverMessage(request.error, 'Unable to load the authorization request.')}</RetryAlert>;
  }
  const problem = problemOfStatus(request.data.status);
  if (problem) return <RequestProblemNotice problem={problem} />;
  if (agents.isError) return <RetryAlert onRetry={() => void agents.refetch()}>{serverMessage(agents.error, 'Unable to load your agents.')}</RetryAlert>;

  return (
    <>
      <ConsentForm
        request={request.data}
        agents={agents.data}
        busy={busy}
        error={error}
        selectAgentId={newAgentId}
        onApprove={(input: ApproveOAuthRequestBody) => void decide('approve', () => approve.mutateAsync(input))}
        onDeny={() => void decide('deny', () => deny.mutateAsync({ requestId }))}
        onCreateAgent={() => setCreating(true)}
      />
      <NewAgentDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(agentId) => {
          setCreating(false);
          setNewAgentId(agentId);
        }}
      />
    </>
  );
}

export function RequestProblemNotice({ problem }: { problem: RequestProblem }) {
  return (
    <Stack spacing={2} component="section" aria-labelledby="consent-problem-title">
      <Typography id="consent-problem-title" variant="h5" component="h1" sx={{ fontWeight: 700 }}>
        {problem === 'approved' || problem === 'denied' ? 'Request already decided' : 'Request not available'}
      </Typography>
      <Alert severity={problem === 'approved' ? 'success' : problem === 'denied' ? 'info' : 'warning'}>{REQUEST_MESSAGES[problem]}</Alert>
      <Box>
        <Button component={RouterLink} to="/dashboard" variant="outlined">
          Go to dashboard
        </Button>
      </Box>
    </Stack>
  );
}

function ConsentSkeleton() {
  return (
    <Box aria-busy="true" aria-label="Loading the authorization request">
      <Skeleton variant="text" width="80%" height={40} />
      <Skeleton variant="text" width="60%" />
      <Skeleton variant="rounded" height={140} sx={{ my: 2 }} />
      <Skeleton variant="rounded" height={56} sx={{ mb: 2 }} />
      <Skeleton variant="rounded" height={160} />
    </Box>
  );
}
