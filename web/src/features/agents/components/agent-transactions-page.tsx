// Route '/dashboard/agents/:agentId/transactions': one agent's payments, filterable.
import { Box, Container, Typography } from '@mui/material';
import { useParams } from 'react-router';
import { BackToDashboardButton } from './back-to-dashboard-button';

export function AgentTransactionsPage() {
  const { agentId } = useParams();

  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default' }}>
      <Container component="main" maxWidth="lg" sx={{ py: 4 }}>
        <BackToDashboardButton />
        <Typography variant="h4" component="h1" sx={{ fontWeight: 700, mt: 2 }}>
          Agent transactions
        </Typography>
        <Typography color="text.secondary" sx={{ mt: 1, wordBreak: 'break-all' }}>
          Agent {agentId}
        </Typography>
      </Container>
    </Box>
  );
}
