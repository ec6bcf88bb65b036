// One agent on the dashboard: name (a link to the agent's page, its controls), shortened DID,
// balance, spending limits, Fund Agent, and icon links to its transactions (only once it has
// a wallet) and its connect page.
import CableRounded from '@mui/icons-material/CableRounded';
import ReceiptLongRounded from '@mui/icons-material/ReceiptLongRounded';
import SmartToyOutlined from '@mui/icons-material/SmartToyOutlined';
import { Box, Button, Card, CardActions, CardContent, Chip, IconButton, Link, Stack, Tooltip, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import type { DashboardAgent } from '../api/dashboard-types';
import { formatAmount, formatDollars, sumDollars, truncateDid } from '../utils/format';

export function AgentCard({ agent, onFund }: { agent: DashboardAgent; onFund: () => void }) {
  const wallet = agent.agent_wallets;
  const balance = wallet ? sumDollars([wallet.balance_usdc_exact, wallet.balance_usdt_exact]) : 0;
  const rules = agent.spending_rules;
  const transactionsLabel = `Transactions of ${agent.name}`;

  return (
    <Card variant="outlined" component="article" aria-label={agent.name} sx={{ height: '100%', display: 'flex', flexDirection: 'column' }}>
      <CardContent sx={{ flexGrow: 1 }}>
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', mb: 1 }}>
          <Box sx={{ display: 'grid', placeItems: 'center', width: 40, height: 40, borderRadius: '50%', bgcolor: 'primary.main', color: 'primary.contrastText', flexShrink: 0 }}>
            <SmartToyOutlined aria-hidden />
          </Box>
          <Typography variant="subtitle1" component="h3" noWrap title={agent.name} sx={{ fontWeight: 700, minWidth: 0, flexGrow: 1 }}>
            <Link component={RouterLink} to={`/dashboard/agents/${agent.id}`} color="inherit" underline="hover">
              {agent.name}
            </Link>
          </Typography>
          <Chip size="small" label={agent.status} color={agent.status === 'active' ? 'success' : 'default'} variant="outlined" />
        </Stack>
        {/* On its own line so the shortened DID is never cut again by the card's width. */}
        <Typography variant="caption" color="text.secondary" component="p" title={agent.did} sx={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', mb: 1.5 }}>
          {truncateDid(agent.did)}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          Balance
        </Typography>
        <Typography data-testid="agent-balance" variant="h6" component="p" sx={{ fontWeight: 700 }}>
          {formatDollars(balance)}
        </Typography>
        <Typography variant="caption" color="text.secondary" component="p" sx={{ mb: 1.5 }}>
          {formatAmount(wallet?.balance_usdc ?? 0)} USDC · {formatAmount(wallet?.balance_usdt ?? 0)} USDT
        </Typography>
        <Stack direction="row" spacing={2}>
          <Limit label="Max/Tx" value={rules ? formatDollars(rules.max_transaction_amount) : '—'} />
          <Limit label="Daily Limit" value={rules ? formatDollars(rules.max_daily_limit) : '—'} />
        </Stack>
      </CardContent>
      <CardActions sx={{ px: 2, pb: 2, pt: 0 }}>
        <Button variant="contained" size="small" onClick={onFund} sx={{ flexGrow: 1 }}>
          Fund Agent
        </Button>
        <Tooltip title={wallet ? 'View transactions' : 'This agent has no wallet yet'}>
          {/* A span keeps the tooltip working while the button is disabled. */}
          <span>
            {wallet ? (
              <IconButton component={RouterLink} to={`/dashboard/agents/${agent.id}/transactions`} aria-label={transactionsLabel}>
                <ReceiptLongRounded />
              </IconButton>
            ) : (
              <IconButton disabled aria-label={transactionsLabel}>
                <ReceiptLongRounded />
              </IconButton>
            )}
          </span>
        </Tooltip>
        <Tooltip title="Connect">
          <IconButton component={RouterLink} to={`/dashboard/agents/${agent.id}/connect`} aria-label={`Connect ${agent.name}`}>
            <CableRounded />
          </IconButton>
        </Tooltip>
      </CardActions>
    </Card>
  );
}

function Limit({ label, value }: { label: string; value: string }) {
  return (
    <Box sx={{ flex: 1 }}>
      <Typography variant="caption" color="text.secondary" component="p">
        {label}
      </Typography>
      <Typography variant="body2" sx={{ fontWeight: 600 }}>
        {value}
      </Typography>
    </Box>
  );
}
