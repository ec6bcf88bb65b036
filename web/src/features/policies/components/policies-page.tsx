// Route '/dashboard/policies': the owner's policies, the rules every payment of their agents
// must pass on top of each agent's spending rules. Create, edit (a new version), switch on
// or off, delete; for a shadow policy, the payments it would have blocked.
import AddRounded from '@mui/icons-material/AddRounded';
import PolicyOutlined from '@mui/icons-material/PolicyOutlined';
import { Button, Card, CardContent, Container, Skeleton, Stack, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { RetryAlert } from '../../../shared/components/retry-alert';
import { ASSISTANT_BUTTON_CLEARANCE } from '../../../shared/layout/assistant-button-space';
import { useTRPC } from '../../../shared/trpc';
import type { Policy } from '../api/policy-types';
import { errorMessage } from '../utils/display';
import { DeletePolicyDialog } from './delete-policy-dialog';
import { PolicyCard } from './policy-card';
import { PolicyFormDialog, type PolicyDialogState } from './policy-form-dialog';

export function PoliciesPage() {
  const trpc = useTRPC();
  const policies = useQuery(trpc.policies.list.queryOptions());
  // For the scope: agents' names, and the agents a new policy can apply to.
  const agents = useQuery(trpc.agents.list.queryOptions());
  const [dialog, setDialog] = useState<(PolicyDialogState & { key: number }) | null>(null);
  const [deleting, setDeleting] = useState<Policy | null>(null);

  const open = (state: PolicyDialogState) => setDialog((current) => ({ ...state, key: (current?.key ?? 0) + 1 }));
  const scopeOf = (policy: Policy) =>
    policy.agentId === null
      ? 'Applies to all agents'
      : `Applies to ${agents.data?.find((agent) => agent.id === policy.agentId)?.name ?? `agent ${policy.agentId.slice(0, 8)}`}`;

  return (
    <Container component="main" maxWidth="lg" sx={{ pt: { xs: 3, md: 4 }, pb: ASSISTANT_BUTTON_CLEARANCE }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' }, mb: 1 }}>
        <Typography variant="h4" component="h1" sx={{ fontWeight: 700 }}>
          Policies
        </Typography>
        {policies.data && policies.data.length > 0 ? (
          <Button variant="contained" startIcon={<AddRounded />} onClick={() => open({ mode: 'create' })} sx={{ alignSelf: { xs: 'flex-start', sm: 'auto' } }}>
            Create policy
          </Button>
        ) : null}
      </Stack>
      <Typography color="text.secondary" sx={{ mb: 3, maxWidth: '75ch' }}>
        Rules every payment of your agents must pass, on top of each agent&apos;s spending rules and KYA caps. A shadow policy is evaluated and reported
        but never enforced: try one before switching it on. Changing a policy&apos;s rules or shadow mode saves a new version.
      </Typography>

      {policies.isPending ? (
        <Stack spacing={2} aria-busy="true" aria-label="Loading policies">
          {[0, 1, 2].map((index) => (
            <Skeleton key={index} variant="rounded" height={150} />
          ))}
        </Stack>
      ) : policies.isError ? (
        <RetryAlert onRetry={() => void policies.refetch()}>
          {errorMessage(policies.error, 'Unable to load your policies.')}
        </RetryAlert>
      ) : policies.data.length === 0 ? (
        <Card variant="outlined" component="section" aria-label="No policies yet">
          <CardContent sx={{ textAlign: 'center', py: 5 }}>
            <PolicyOutlined color="primary" sx={{ fontSize: 48 }} aria-hidden />
            <Typography variant="h6" component="h2" sx={{ mt: 1 }}>
              No policies yet
            </Typography>
            <Typography color="text.secondary" sx={{ mt: 1, mb: 3, maxWidth: '52ch', mx: 'auto' }}>
              Limit amounts, categories, merchants, countries and hours for all your agents or one, and decide when payments wait for your approval.
            </Typography>
            <Button variant="contained" startIcon={<AddRounded />} onClick={() => open({ mode: 'create' })}>
              Create policy
            </Button>
          </CardContent>
        </Card>
      ) : (
        <Stack spacing={2}>
          {policies.data.map((policy) => (
            <PolicyCard
              key={policy.id}
              policy={policy}
              scope={scopeOf(policy)}
              onEdit={() => open({ mode: 'edit', policy })}
              onDelete={() => setDeleting(policy)}
            />
          ))}
        </Stack>
      )}

      {dialog ? <PolicyFormDialog key={dialog.key} state={dialog} agents={agents.data ?? []} onClose={() => setDialog(null)} /> : null}
      <DeletePolicyDialog policy={deleting} onClose={() => setDeleting(null)} />
    </Container>
  );
}
