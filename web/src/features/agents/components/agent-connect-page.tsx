// Route '/dashboard/agents/:agentId/connect': how to connect one agent over MCP (an assistant through
// OAuth, a script with its DID and API key), and pay x402 and MPP sellers.
import OpenInNewRounded from '@mui/icons-material/OpenInNewRounded';
import { Box, Button, Card, CardContent, Chip, Container, Skeleton, Stack, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { SectionCard } from '../../../shared/components/section-card';
import { useTRPC } from '../../../shared/trpc';
import { agentApiBaseUrl, fetchAgentApiBaseUrl } from '../api/agent-api-base';
import { isAgentId } from '../utils/agent-id';
import { networkLinks, type LinkedNetwork } from '../utils/network-links';
import { isNotFoundError } from '../utils/trpc-errors';
import { ASSISTANT_BUTTON_CLEARANCE } from '../../../shared/layout/assistant-button-space';
import { AddToAssistantCard } from './add-to-assistant-card';
import { BackToDashboardButton } from './back-to-dashboard-button';
import { AgentDidCard, CopyableValue, CredentialCard, McpEndpointsCard, PaidFetchCard, SpendingRulesCard, WorkflowChecklistCard, X402FlowCard } from './mcp-setup-cards';
import { RotateApiKeyCard } from './rotate-api-key-card';

interface AgentWallet {
  wallet_address: string;
  evm_wallet_address: string | null;
  balance_usdc: number;
  balance_usdt: number;
}

interface WalletNetwork extends LinkedNetwork {
  name: string;
}

const TOKEN_AMOUNT = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

export function AgentConnectPage() {
  const { agentId } = useParams();
  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default' }}>
      <Container component="main" maxWidth="lg" sx={{ pt: 4, pb: ASSISTANT_BUTTON_CLEARANCE }}>
        <BackToDashboardButton />
        <Typography variant="h4" component="h1" sx={{ fontWeight: 700, mt: 2 }}>
          Agent MCP Setup
        </Typography>
        <Stack spacing={3} sx={{ mt: 3 }}>
          {!agentId ? (
            <ErrorCard message="Agent identifier was not provided." />
          ) : isAgentId(agentId) ? (
            <AgentSetup agentId={agentId} />
          ) : (
            // Not a UUID, so no agent's id: the server would only refuse the format.
            <ErrorCard message="Agent not found." />
          )}
        </Stack>
      </Container>
    </Box>
  );
}

function AgentSetup({ agentId }: { agentId: string }) {
  const trpc = useTRPC();
  // NOT_FOUND covers an unknown id and another owner's agent alike.
  const agent = useQuery(trpc.agents.get.queryOptions({ agent_id: agentId }));
  const network = useQuery(trpc.chain.network.queryOptions());
  // The deployment's address does not change while the app runs; the read never fails.
  const apiBase = useQuery({ queryKey: ['agent-api-base-url'], queryFn: () => fetchAgentApiBaseUrl(), staleTime: Infinity });

  if (agent.isError) return <ErrorCard message={isNotFoundError(agent.error) ? 'Agent not found.' : 'Unable to load agent details.'} />;
  if (network.isError) return <ErrorCard message="Unable to load agent details." />;
  if (agent.isPending || network.isPending || apiBase.isPending) return <LoadingCards />;

  const base = apiBase.data ?? agentApiBaseUrl(null, window.location.origin);
  return (
    <>
      <Typography color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
        Connect <strong>{agent.data.name}</strong> to your AI assistant, n8n, Make or any MCP client.
      </Typography>
      <AgentWalletCard wallet={agent.data.agent_wallets} network={network.data} />
      <AddToAssistantCard base={base} />
      <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
        <AgentDidCard did={agent.data.did} />
        <SpendingRulesCard rules={agent.data.spending_rules} />
      </Box>
      <RotateApiKeyCard agentId={agent.data.id} agentName={agent.data.name} />
      <McpEndpointsCard base={base} />
      <PaidFetchCard base={base} did={agent.data.did} />
      <X402FlowCard base={base} />
      <CredentialCard credential={agent.data.verifiable_credential} />
      <WorkflowChecklistCard agentId={agent.data.id} />
    </>
  );
}

function LoadingCards() {
  return (
    <Box aria-busy="true" aria-label="Loading agent">
      {[0, 1, 2].map((index) => (
        <Card key={index} variant="outlined" sx={{ mb: 3 }}>
          <CardContent>
            <Skeleton variant="text" width="30%" height={32} />
            <Skeleton variant="text" width="80%" />
            <Skeleton variant="text" width="60%" />
            <Skeleton variant="rounded" height={40} sx={{ mt: 1 }} />
          </CardContent>
        </Card>
      ))}
    </Box>
  );
}

function ErrorCard({ message }: { message: string }) {
  return (
    <Card variant="outlined" component="section" aria-label="Something went wrong">
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          Something went wrong
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {message}
        </Typography>
        <Button component={RouterLink} to="/dashboard" variant="contained">
          Return to dashboard
        </Button>
      </CardContent>
    </Card>
  );
}

function LabelledValue({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      {children}
    </Box>
  );
}

function ExternalLinkButton({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Button href={href} target="_blank" rel="noopener noreferrer" variant="outlined" size="small" endIcon={<OpenInNewRounded />}>
      {children}
    </Button>
  );
}

function AgentWalletCard({ wallet, network }: { wallet: AgentWallet | null; network: WalletNetwork }) {
  const evmAddress = wallet?.evm_wallet_address ?? null;
  const links = networkLinks(network, evmAddress);
  // Newer agents' legacy address is their Base account, possibly in another letter case.
  const legacyAddress = wallet && wallet.wallet_address.toLowerCase() !== evmAddress?.toLowerCase() ? wallet.wallet_address : null;
  const notes = [links.faucetNote, links.explorerNote].filter((note) => note !== null);

  return (
    <SectionCard title="Agent Wallet">
      <Stack spacing={2}>
        <LabelledValue label="Network">
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <Typography>{network.name}</Typography>
            {network.sandbox ? <Chip label="Sandbox" size="small" variant="outlined" /> : null}
          </Stack>
        </LabelledValue>
        {wallet ? (
          <>
            <LabelledValue label="Base wallet address">
              {evmAddress ? <CopyableValue value={evmAddress} thing="Base wallet address" /> : <Typography color="text.secondary">No Base address yet.</Typography>}
            </LabelledValue>
            {legacyAddress ? (
              <LabelledValue label="Legacy wallet address">
                <CopyableValue value={legacyAddress} thing="Legacy wallet address" />
              </LabelledValue>
            ) : null}
            <Stack direction="row" spacing={4}>
              <LabelledValue label="USDC">
                <Typography variant="h6" component="p">{TOKEN_AMOUNT.format(wallet.balance_usdc)}</Typography>
              </LabelledValue>
              <LabelledValue label="USDT">
                <Typography variant="h6" component="p">{TOKEN_AMOUNT.format(wallet.balance_usdt)}</Typography>
              </LabelledValue>
            </Stack>
          </>
        ) : (
          <Typography color="text.secondary">This agent does not yet have a wallet.</Typography>
        )}
        {links.faucetUrl || links.explorerTokenUrl ? (
          <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
            {links.faucetUrl ? <ExternalLinkButton href={links.faucetUrl}>Get test USDC from the faucet</ExternalLinkButton> : null}
            {links.explorerTokenUrl ? <ExternalLinkButton href={links.explorerTokenUrl}>View USDC on the block explorer</ExternalLinkButton> : null}
          </Stack>
        ) : null}
        {notes.map((note) => (
          <Typography key={note} variant="body2" color="text.secondary">
            {note}
          </Typography>
        ))}
      </Stack>
    </SectionCard>
  );
}
