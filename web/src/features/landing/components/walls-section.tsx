// The 'Go through the walls' card (product spec section 2, item 3): the four walls agents hit
// today, each beside how Purser goes through it.
import CheckCircleRounded from '@mui/icons-material/CheckCircleRounded';
import CreditCardOffRounded from '@mui/icons-material/CreditCardOffRounded';
import FingerprintRounded from '@mui/icons-material/FingerprintRounded';
import LinkOffRounded from '@mui/icons-material/LinkOffRounded';
import SmartToyRounded from '@mui/icons-material/SmartToyRounded';
import { Box, Paper, Typography } from '@mui/material';
import { alpha } from '@mui/material/styles';
import { WALLS, type Wall } from '../data/walls';
import { LandingSection } from './landing-section';
import { IconTile } from './icon-tile';

const wallIcons: Record<Wall['id'], typeof SmartToyRounded> = {
  'robot-blockers': SmartToyRounded,
  'payment-rails': CreditCardOffRounded,
  identity: FingerprintRounded,
  integrations: LinkOffRounded,
};

export function WallsSection() {
  return (
    <LandingSection
      id="walls"
      eyebrow="Why agents get stuck"
      title="Go through the walls"
      lead="The internet’s payment and identity systems were built for people at keyboards. Four walls stop agents today, and Purser goes through each of them."
      tone="tinted"
    >
      <Paper
        variant="outlined"
        sx={(theme) => ({
          borderRadius: 2.5,
          overflow: 'hidden',
          display: 'grid',
          gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' },
          gap: '1px',
          bgcolor: 'divider',
          boxShadow: `0 30px 80px -40px ${alpha(theme.palette.primary.main, 0.45)}`,
        })}
      >
        {WALLS.map((wall) => (
          <WallItem key={wall.id} wall={wall} />
        ))}
      </Paper>
    </LandingSection>
  );
}

function WallItem({ wall }: { wall: Wall }) {
  const Icon = wallIcons[wall.id];
  const titleId = `wall-${wall.id}-title`;
  return (
    <Box component="article" aria-labelledby={titleId} data-testid={`wall-${wall.id}`} sx={{ bgcolor: 'background.paper', p: { xs: 3, md: 4 } }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5 }}>
        <IconTile tone="error">
          <Icon />
        </IconTile>
        <Typography id={titleId} variant="h6" component="h3" sx={{ fontWeight: 700, lineHeight: 1.3 }}>
          {wall.title}
        </Typography>
      </Box>
      <Typography color="text.secondary" sx={{ mt: 2 }}>
        {wall.wall}
      </Typography>
      <Box
        sx={(theme) => ({
          mt: 2.5,
          p: 2,
          borderRadius: 1.5,
          bgcolor: alpha(theme.palette.success.main, theme.palette.mode === 'dark' ? 0.1 : 0.07),
          display: 'flex',
          gap: 1.5,
        })}
      >
        <CheckCircleRounded aria-hidden sx={{ color: 'success.main', mt: '2px', flexShrink: 0 }} />
        <Box>
          <Typography variant="subtitle2" component="p" sx={{ fontWeight: 700 }}>
            How Purser goes through
          </Typography>
          <Typography variant="body2" sx={{ mt: 0.5 }}>
            {wall.through}
          </Typography>
        </Box>
      </Box>
    </Box>
  );
}
