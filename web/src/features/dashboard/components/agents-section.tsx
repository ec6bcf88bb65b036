// 'Your AI Agents': Create Agent and a grid of the owner's agent cards.
import AddRounded from '@mui/icons-material/AddRounded';
import { Button, Card, CardContent, Grid, Stack, Typography } from '@mui/material';
import type { DashboardAgent } from '../api/dashboard-types';
import { AgentCard } from './agent-card';

export function AgentsSection({ agents, onCreate, onFund }: { agents: readonly DashboardAgent[]; onCreate: () => void; onFund: (agentId: string) => void }) {
  return (
    <Card variant="outlined" component="section" aria-labelledby="agents-title">
      <CardContent>
        {/* On narrow phones the button moves under the title rather than squeezing both onto two lines. */}
        <Stack direction="row" useFlexGap sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', columnGap: 2, rowGap: 1, mb: 2 }}>
          <Typography id="agents-title" variant="h6" component="h2">
            Your AI Agents
          </Typography>
          <Button variant="contained" startIcon={<AddRounded />} onClick={onCreate} sx={{ whiteSpace: 'nowrap' }}>
            Create Agent
          </Button>
        </Stack>
        {agents.length === 0 ? (
          <Typography color="text.secondary">No agents yet. Create one to give it a DID, a wallet and spending rules.</Typography>
        ) : (
          <Grid container spacing={2}>
            {agents.map((agent) => (
              <Grid key={agent.id} size={{ xs: 12, sm: 6, md: 4 }}>
                <AgentCard agent={agent} onFund={() => onFund(agent.id)} />
              </Grid>
            ))}
          </Grid>
        )}
      </CardContent>
    </Card>
  );
}
