// The agent page's heading: name, description, DID, status and KYA tier (with its eIDAS level
// of assurance), and links to the agent's connect and transactions pages.
import CableRounded from '@mui/icons-material/CableRounded';
import ReceiptLongRounded from '@mui/icons-material/ReceiptLongRounded';
import { Box, Button, Chip, Stack, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import type { AgentDetails } from '../api/agent-types';
import { tierFacts, tierLabel } from '../utils/kya';
import { CopyButton } from './copy-button';

const STATUS_COLORS = { active: 'success', suspended: 'warning', deleted: 'error' } as const;

export function AgentHeader({ agent }: { agent: AgentDetails }) {
  const tier = tierFacts(agent.kya_tier);
  return (
    <Box component="header" sx={{ mt: 2 }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'flex-start' }, justifyContent: 'space-between' }}>
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="h4" component="h1" sx={{ fontWeight: 700, overflowWrap: 'anywhere' }}>
            {agent.name}
          </Typography>
          {agent.description ? (
            <Typography color="text.secondary" sx={{ mt: 0.5, overflowWrap: 'anywhere' }}>
              {agent.description}
            </Typography>
          ) : null}
        </Box>
        <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', flexShrink: 0 }}>
          <Button component={RouterLink} to={`/dashboard/agents/${agent.id}/connect`} variant="outlined" size="small" startIcon={<CableRounded />}>
            Connect
          </Button>
          <Button component={RouterLink} to={`/dashboard/agents/${agent.id}/transactions`} variant="outlined" size="small" startIcon={<ReceiptLongRounded />}>
            Transactions
          </Button>
        </Stack>
      </Stack>
      <Stack direction="row" spacing={1} useFlexGap sx={{ mt: 1.5, flexWrap: 'wrap', alignItems: 'center' }}>
        <Chip
          label={tierLabel(agent.status)}
          color={STATUS_COLORS[agent.status]}
          size="small"
          data-testid="agent-status"
          // White on the light theme's orange is too faint to read (WCAG AA); dark text is not.
          sx={agent.status === 'suspended' ? { color: 'common.black' } : undefined}
        />
        <Chip label={`KYA ${tierLabel(tier.tier)} · eIDAS ${tier.eidas}`} size="small" variant="outlined" data-testid="agent-kya-tier" />
      </Stack>
      <Stack direction="row" spacing={0.5} sx={{ mt: 1, alignItems: 'center', minWidth: 0 }}>
        <Typography variant="body2" color="text.secondary" component="span" sx={{ flexShrink: 0 }}>
          DID
        </Typography>
        <Typography variant="body2" component="code" sx={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', wordBreak: 'break-all', minWidth: 0 }}>
          {agent.did}
        </Typography>
        <CopyButton value={agent.did} thing="Agent DID" />
      </Stack>
    </Box>
  );
}
