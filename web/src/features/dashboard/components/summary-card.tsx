// 'Summary': how many agents are active, and what all agents hold together (USDC + USDT).
import { Box, Stack, Typography } from '@mui/material';
import { SectionCard } from '../../../shared/components/section-card';
import type { DashboardAgent } from '../api/dashboard-types';
import { formatDollars, sumDollars } from '../utils/format';

export function SummaryCard({ agents }: { agents: readonly DashboardAgent[] }) {
  const active = agents.filter((agent) => agent.status === 'active').length;
  const totalBalance = sumDollars(
    agents.flatMap((agent) => (agent.agent_wallets ? [agent.agent_wallets.balance_usdc_exact, agent.agent_wallets.balance_usdt_exact] : [])),
  );

  return (
    <SectionCard fill title="Summary">
      <Stack spacing={2}>
        <Figure label="Active Agents" value={String(active)} note={`of ${agents.length} ${agents.length === 1 ? 'agent' : 'agents'}`} testId="summary-active-agents" />
        <Figure label="Total Agent Balance" value={formatDollars(totalBalance)} note="USDC and USDT held by all your agents" testId="summary-agent-balance" />
      </Stack>
    </SectionCard>
  );
}

function Figure({ label, value, note, testId }: { label: string; value: string; note: string; testId: string }) {
  return (
    <Box>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography data-testid={testId} variant="h5" component="p" sx={{ fontWeight: 700 }}>
        {value}
      </Typography>
      <Typography variant="caption" color="text.secondary">
        {note}
      </Typography>
    </Box>
  );
}
