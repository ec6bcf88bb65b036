// A titled landing section that hash links can target below the sticky navigation.
import { Box, Container, Typography } from '@mui/material';
import type { ReactNode } from 'react';

const STICKY_NAV_CLEARANCE_PX = 80;

interface LandingSectionProps {
  id: string;
  title: string;
  lead?: string;
  children?: ReactNode;
}

export function LandingSection({ id, title, lead, children }: LandingSectionProps) {
  const titleId = `${id}-title`;
  return (
    <Box
      component="section"
      id={id}
      aria-labelledby={titleId}
      sx={{ py: { xs: 8, md: 12 }, scrollMarginTop: STICKY_NAV_CLEARANCE_PX }}
    >
      <Container maxWidth="md">
        <Typography id={titleId} variant="h4" component="h2" sx={{ fontWeight: 700 }}>
          {title}
        </Typography>
        {lead && (
          <Typography color="text.secondary" sx={{ mt: 2 }}>
            {lead}
          </Typography>
        )}
        {children}
      </Container>
    </Box>
  );
}
