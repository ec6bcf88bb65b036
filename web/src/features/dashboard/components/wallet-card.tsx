// 'Your Wallet': the owner's total in dollars, its USDC / USDT split, Top Up and Send.
import AddRounded from '@mui/icons-material/AddRounded';
import SendRounded from '@mui/icons-material/SendRounded';
import { Box, Button, Stack, Typography } from '@mui/material';
import { SectionCard } from '../../../shared/components/section-card';
import type { DashboardWallet } from '../api/dashboard-types';
import { formatAmount, formatDollars, sumDollars } from '../utils/format';

export function WalletCard({ wallet, onTopUp, onSend }: { wallet: DashboardWallet | null; onTopUp: () => void; onSend: () => void }) {
  const usdc = wallet?.balance_usdc ?? 0;
  const usdt = wallet?.balance_usdt ?? 0;
  const total = wallet ? sumDollars([wallet.balance_usdc_exact, wallet.balance_usdt_exact]) : 0;

  return (
    <SectionCard fill title="Your Wallet">
      <Typography variant="body2" color="text.secondary">
        Total balance
      </Typography>
      <Typography data-testid="wallet-total" variant="h4" component="p" sx={{ fontWeight: 700, mb: 2 }}>
        {formatDollars(total)}
      </Typography>
      <Stack direction="row" spacing={2} sx={{ mb: 3 }}>
        <Balance label="USDC" value={usdc} testId="wallet-usdc" />
        <Balance label="USDT" value={usdt} testId="wallet-usdt" />
      </Stack>
      <Stack direction="row" spacing={1.5}>
        <Button variant="contained" startIcon={<AddRounded />} onClick={onTopUp}>
          Top Up
        </Button>
        <Button variant="outlined" startIcon={<SendRounded />} onClick={onSend}>
          Send
        </Button>
      </Stack>
    </SectionCard>
  );
}

function Balance({ label, value, testId }: { label: string; value: number; testId: string }) {
  return (
    <Box sx={{ flex: 1, p: 1.5, borderRadius: 1, bgcolor: 'action.hover' }}>
      <Typography variant="caption" color="text.secondary" component="p">
        {label}
      </Typography>
      <Typography data-testid={testId} sx={{ fontWeight: 600 }}>
        {formatAmount(value)}
      </Typography>
    </Box>
  );
}
