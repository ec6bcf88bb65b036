// The agent's verifiable credential: its standing in the platform's status list (active,
// suspended with the agent, revoked once deleted), when it was issued and expires, and Verify,
// which has the server check the signature, expiry and status now and says what it found.
import CheckCircleRounded from '@mui/icons-material/CheckCircleRounded';
import ErrorRounded from '@mui/icons-material/ErrorRounded';
import { Alert, AlertTitle, Box, Button, Chip, Stack, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SectionCard } from '../../../shared/components/section-card';
import { useTRPC } from '../../../shared/trpc';
import type { AgentDetails } from '../api/agent-types';
import { credentialStatus, verificationOutcome } from '../utils/credential-status';
import { formatDateTime } from '../utils/money';
import { errorMessage } from '../utils/trpc-errors';

export function AgentCredentialCard({ agent }: { agent: AgentDetails }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const credential = agent.verifiable_credential;
  const status = credentialStatus(agent.status, credential !== null);
  // A query on the server; asked on demand, and fresh every time the owner asks.
  const verify = useMutation({
    mutationFn: () => queryClient.fetchQuery({ ...trpc.agents.verifyCredential.queryOptions({ agentId: agent.id }), staleTime: 0, retry: false }),
  });
  const outcome = verify.data ? verificationOutcome(verify.data) : null;

  return (
    <SectionCard title="Credential">
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
        <Typography variant="body2" color="text.secondary">
          Status
        </Typography>
        <Chip
          size="small"
          label={status.label}
          color={status.color}
          data-testid="credential-status"
          // White on the light theme's orange is too faint to read (WCAG AA); dark text is not.
          sx={status.color === 'warning' ? { color: 'common.black' } : undefined}
        />
      </Stack>
      <Typography variant="body2" color="text.secondary">
        {status.description}
      </Typography>
      {credential ? (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          SD-JWT VC issued {formatDateTime(credential.issued_at)}, expires {formatDateTime(credential.expires_at)}.
        </Typography>
      ) : null}
      <Box sx={{ mt: 2 }}>
        <Button variant="outlined" onClick={() => verify.mutate()} disabled={verify.isPending || credential === null}>
          {verify.isPending ? 'Verifying...' : 'Verify credential'}
        </Button>
      </Box>
      <Box aria-live="polite" sx={{ mt: outcome || verify.isError ? 2 : 0 }}>
        {outcome ? (
          <Alert
            severity={outcome.valid ? 'success' : 'error'}
            icon={outcome.valid ? <CheckCircleRounded /> : <ErrorRounded />}
            data-testid="credential-verification"
          >
            <AlertTitle>{outcome.title}</AlertTitle>
            {outcome.reasons.length === 1 ? (
              outcome.reasons[0]
            ) : (
              <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
                {outcome.reasons.map((reason) => (
                  <li key={reason}>{reason}</li>
                ))}
              </Box>
            )}
          </Alert>
        ) : null}
        {verify.isError ? <Alert severity="error">{errorMessage(verify.error, 'The credential could not be verified.')}</Alert> : null}
      </Box>
    </SectionCard>
  );
}
