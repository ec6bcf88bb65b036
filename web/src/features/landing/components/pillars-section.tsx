// The five value pillars (product spec section 2, item 4).
import AccountBalanceWalletRounded from '@mui/icons-material/AccountBalanceWalletRounded';
import AltRouteRounded from '@mui/icons-material/AltRouteRounded';
import BadgeRounded from '@mui/icons-material/BadgeRounded';
import ReceiptLongRounded from '@mui/icons-material/ReceiptLongRounded';
import TuneRounded from '@mui/icons-material/TuneRounded';
import { Box, Paper, Typography } from '@mui/material';
import { PILLARS, type Pillar } from '../data/pillars';
import { LandingSection } from './landing-section';
import { IconTile } from './icon-tile';

const pillarIcons: Record<Pillar['id'], typeof TuneRounded> = {
  wallets: AccountBalanceWalletRounded,
  identity: BadgeRounded,
  controls: TuneRounded,
  rails: AltRouteRounded,
  audit: ReceiptLongRounded,
};

export function PillarsSection() {
  return (
    <LandingSection
      id="pillars"
      eyebrow="Value pillars"
      title="Five reasons to give your agents Purser"
      lead="Money, identity and control for agents, in one service you can audit."
    >
      <Box
        component="ul"
        sx={{
          listStyle: 'none',
          p: 0,
          m: 0,
          display: 'grid',
          gap: 2.5,
          gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', md: 'repeat(6, 1fr)' },
          // Three then two on wide screens: each card spans two of six columns, the last two three.
          '& > li': { gridColumn: { md: 'span 2' } },
          '& > li:nth-of-type(n + 4)': { gridColumn: { md: 'span 3' } },
          '& > li:last-of-type': { gridColumn: { sm: '1 / -1', md: 'span 3' } },
        }}
      >
        {PILLARS.map((pillar) => {
          const Icon = pillarIcons[pillar.id];
          return (
            <li key={pillar.id} data-testid={`pillar-${pillar.id}`}>
              <Paper variant="outlined" sx={{ p: 3, height: '100%', borderRadius: 2, display: 'flex', flexDirection: 'column' }}>
                <Box>
                  <IconTile tone="primary" size={48}>
                    <Icon />
                  </IconTile>
                </Box>
                <Typography variant="h6" component="h3" sx={{ mt: 2.5, fontWeight: 700 }}>
                  {pillar.title}
                </Typography>
                <Typography color="text.secondary" sx={{ mt: 1, flexGrow: 1 }}>
                  {pillar.text}
                </Typography>
                <Typography variant="body2" sx={{ mt: 2, pt: 2, borderTop: 1, borderColor: 'divider', fontWeight: 600, color: 'primary.main' }}>
                  {pillar.proof}
                </Typography>
              </Paper>
            </li>
          );
        })}
      </Box>
    </LandingSection>
  );
}
