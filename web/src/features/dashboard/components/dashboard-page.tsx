// Route '/dashboard' (behind the session guard): the owner's wallet, agents and activity,
// kept live, and the dialogs that top up, fund agents and create them.
import { Box, Container, Grid, Typography } from '@mui/material';
import { useState } from 'react';
import { useDashboardData } from '../hooks/use-dashboard-data';
import { ASSISTANT_BUTTON_CLEARANCE } from '../../../shared/layout/assistant-button-space';
import { AgentsSection } from './agents-section';
import { ApiKeyDialog, type CreatedKey } from './api-key-dialog';
import { CreateAgentDialog } from './create-agent-dialog';
import { DashboardSkeleton } from './dashboard-skeleton';
import { FundAgentDialog } from './fund-agent-dialog';
import { PendingApprovalsNotice } from './pending-approvals-notice';
import { RecentTransactionsCard } from './recent-transactions-card';
import { SummaryCard } from './summary-card';
import { TopUpDialog } from './top-up-dialog';
import { WalletCard } from './wallet-card';

interface FundDialogState {
  open: boolean;
  agentId: string | null;
  /** Bumped on every opening, so the dialog starts from its defaults each time. */
  key: number;
}

export function DashboardPage() {
  const { loading, wallet, agents, transactions } = useDashboardData();
  const [topUpOpen, setTopUpOpen] = useState(false);
  const [createOpen, setCreateOpen] = useState(false);
  const [fund, setFund] = useState<FundDialogState>({ open: false, agentId: null, key: 0 });
  const [createdKey, setCreatedKey] = useState<CreatedKey | null>(null);

  const openFund = (agentId: string | null) => setFund((current) => ({ open: true, agentId, key: current.key + 1 }));

  return (
    <Box>
      <Container component="main" maxWidth="lg" sx={{ pt: { xs: 3, md: 4 }, pb: ASSISTANT_BUTTON_CLEARANCE }}>
        <Typography variant="h4" component="h1" sx={{ fontWeight: 700, mb: 3 }}>
          Dashboard
        </Typography>
        <PendingApprovalsNotice />
        {loading ? (
          <DashboardSkeleton />
        ) : (
          <Grid container spacing={3}>
            <Grid size={{ xs: 12, md: 6 }}>
              <WalletCard wallet={wallet} onTopUp={() => setTopUpOpen(true)} onSend={() => openFund(null)} />
            </Grid>
            <Grid size={{ xs: 12, md: 6 }}>
              <SummaryCard agents={agents} />
            </Grid>
            <Grid size={12}>
              <AgentsSection agents={agents} onCreate={() => setCreateOpen(true)} onFund={openFund} />
            </Grid>
            <Grid size={12}>
              <RecentTransactionsCard transactions={transactions} />
            </Grid>
          </Grid>
        )}
      </Container>

      <TopUpDialog open={topUpOpen} onClose={() => setTopUpOpen(false)} />
      <FundAgentDialog
        key={fund.key}
        open={fund.open}
        agents={agents}
        initialAgentId={fund.agentId}
        onClose={() => setFund((current) => ({ ...current, open: false }))}
      />
      <CreateAgentDialog
        open={createOpen}
        onClose={() => setCreateOpen(false)}
        onCreated={(result) => setCreatedKey({ agentName: result.agent.name, key: result.api_key.key })}
      />
      <ApiKeyDialog created={createdKey} onClose={() => setCreatedKey(null)} />
    </Box>
  );
}
