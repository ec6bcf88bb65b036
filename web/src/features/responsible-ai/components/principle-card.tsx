// One part of the responsible-AI commitments (Principles, Safety, Privacy, Operations) as a card.
import BalanceRounded from '@mui/icons-material/BalanceRounded';
import LockRounded from '@mui/icons-material/LockRounded';
import ShieldRounded from '@mui/icons-material/ShieldRounded';
import TuneRounded from '@mui/icons-material/TuneRounded';
import { Box, Card, CardContent, Typography } from '@mui/material';
import { alpha } from '@mui/material/styles';
import { ContentBlocks } from '../../../shared/content/content-blocks';
import type { BlockGroup } from '../utils/group-by-heading';

const ICONS: Record<string, typeof BalanceRounded> = {
  Principles: BalanceRounded,
  Safety: ShieldRounded,
  Privacy: LockRounded,
  Operations: TuneRounded,
};

export function PrincipleCard({ group }: { group: BlockGroup }) {
  const Icon = ICONS[group.heading] ?? BalanceRounded;
  return (
    <Card variant="outlined" component="section" aria-labelledby={group.id} sx={{ height: '100%' }}>
      <CardContent sx={{ p: { xs: 2.5, sm: 3 } }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, mb: 1 }}>
          <Box
            aria-hidden
            sx={(theme) => ({
              display: 'grid',
              placeItems: 'center',
              width: 40,
              height: 40,
              borderRadius: '10px',
              color: 'primary.main',
              bgcolor: alpha(theme.palette.primary.main, theme.palette.mode === 'dark' ? 0.18 : 0.1),
            })}
          >
            <Icon />
          </Box>
          <Typography id={group.id} variant="h5" component="h2" sx={{ fontWeight: 700, scrollMarginTop: 96 }}>
            {group.heading}
          </Typography>
        </Box>
        <Box sx={{ '& li::marker': { color: 'primary.main' } }}>
          <ContentBlocks blocks={group.blocks} />
        </Box>
      </CardContent>
    </Card>
  );
}
