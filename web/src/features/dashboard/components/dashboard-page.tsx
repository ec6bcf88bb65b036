// Route '/dashboard' (behind the session guard): the owner's wallet, agents and activity.
import { Box, Card, CardContent, Container, Grid, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { DashboardTopBar } from './dashboard-top-bar';

function DashboardCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card variant="outlined" component="section" aria-label={title} sx={{ height: '100%' }}>
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          {title}
        </Typography>
        {children}
      </CardContent>
    </Card>
  );
}

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
            <DashboardCard title="Your Wallet">
              <Typography color="text.secondary">Balances appear here once your wallet is loaded.</Typography>
            </DashboardCard>
          </Grid>
          <Grid size={{ xs: 12, md: 6 }}>
            <DashboardCard title="Summary">
              <Typography color="text.secondary">Active agents and their total balance.</Typography>
            </DashboardCard>
          </Grid>
          <Grid size={12}>
            <DashboardCard title="Your AI Agents">
              <Typography color="text.secondary">No agents yet.</Typography>
            </DashboardCard>
          </Grid>
          <Grid size={12}>
            <DashboardCard title="Recent Transactions">
              <Typography color="text.secondary">No transactions yet.</Typography>
            </DashboardCard>
          </Grid>
        </Grid>
      </Container>
    </Box>
  );
}
