// Route '/dashboard' (behind the session guard): the owner's wallet, agents and activity.
import { Box, Container, Grid, Typography } from '@mui/material';
import { DashboardTopBar } from './dashboard-top-bar';
import { SectionCard } from '../../../shared/components/section-card';

export function DashboardPage() {
  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default' }}>
      <DashboardTopBar />
      <Container component="main" maxWidth="lg" sx={{ py: 4 }}>
        <Typography variant="h4" component="h1" sx={{ fontWeight: 700, mb: 3 }}>
          Dashboard
        </Typography>
        <Grid container spacing={3}>
          <Grid size={{ xs: 12, md: 6 }}>
            <SectionCard fill title="Your Wallet">
              <Typography color="text.secondary">Balances appear here once your wallet is loaded.</Typography>
            </SectionCard>
          </Grid>
          <Grid size={{ xs: 12, md: 6 }}>
            <SectionCard fill title="Summary">
              <Typography color="text.secondary">Active agents and their total balance.</Typography>
            </SectionCard>
          </Grid>
          <Grid size={12}>
            <SectionCard fill title="Your AI Agents">
              <Typography color="text.secondary">No agents yet.</Typography>
            </SectionCard>
          </Grid>
          <Grid size={12}>
            <SectionCard fill title="Recent Transactions">
              <Typography color="text.secondary">No transactions yet.</Typography>
            </SectionCard>
          </Grid>
        </Grid>
      </Container>
    </Box>
  );
}
