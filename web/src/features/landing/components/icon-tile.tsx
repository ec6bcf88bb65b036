// The tinted square behind a landing card's icon (pillars, walls, use cases).
import { Box } from '@mui/material';
import { alpha } from '@mui/material/styles';
import type { ReactNode } from 'react';

type Tone = 'primary' | 'secondary' | 'error';

export function IconTile({ tone, size = 44, children }: { tone: Tone; size?: number; children: ReactNode }) {
  return (
    <Box
      aria-hidden
      sx={(theme) => ({
        display: 'grid',
        placeItems: 'center',
        width: size,
        height: size,
        borderRadius: 1.5,
        flexShrink: 0,
        color: `${tone}.main`,
        bgcolor: alpha(theme.palette[tone].main, tone === 'error' ? 0.1 : 0.12),
      })}
    >
      {children}
    </Box>
  );
}
