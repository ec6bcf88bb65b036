// The shell every landing section shares: a titled <section> that hash links can target below
// the sticky navigation, with an optional eyebrow and lead, centred above the content.
// It takes focus (tabIndex -1) so a same-page link can move keyboard users to it.
import { Box, Container, Typography } from '@mui/material';
import type { ReactNode } from 'react';

const STICKY_NAV_CLEARANCE_PX = 80;

interface LandingSectionProps {
  id: string;
  title: string;
  lead?: ReactNode;
  /** A short label above the title. */
  eyebrow?: string;
  /** 'tinted' lays a faint band of the primary colour behind the section, to separate neighbours. */
  tone?: 'plain' | 'tinted';
  /** The content's maximum width; the title and lead stay at a readable measure either way. */
  width?: 'md' | 'lg';
  children?: ReactNode;
}

export function LandingSection({ id, title, lead, eyebrow, tone = 'plain', width = 'lg', children }: LandingSectionProps) {
  const titleId = `${id}-title`;
  return (
    <Box
      component="section"
      id={id}
      aria-labelledby={titleId}
      tabIndex={-1}
      sx={(theme) => ({
        py: { xs: 8, md: 12 },
        scrollMarginTop: STICKY_NAV_CLEARANCE_PX,
        outline: 'none',
        ...(tone === 'tinted' && {
          bgcolor: theme.palette.mode === 'dark' ? 'rgba(129, 140, 248, 0.06)' : 'rgba(79, 70, 229, 0.04)',
          borderBlock: 1,
          borderColor: 'divider',
        }),
      })}
    >
      <Container maxWidth={width}>
        <Box sx={{ textAlign: 'center', maxWidth: 760, mx: 'auto' }}>
          {eyebrow && (
            <Typography
              component="p"
              variant="overline"
              sx={{ color: 'primary.main', fontWeight: 700, letterSpacing: '0.12em', lineHeight: 2 }}
            >
              {eyebrow}
            </Typography>
          )}
          <Typography
            id={titleId}
            variant="h4"
            component="h2"
            sx={{ fontWeight: 800, letterSpacing: '-0.02em', fontSize: { xs: '1.75rem', md: '2.25rem' } }}
          >
            {title}
          </Typography>
          {lead && (
            <Typography color="text.secondary" sx={{ mt: 2, fontSize: { md: '1.125rem' } }}>
              {lead}
            </Typography>
          )}
        </Box>
        {children && <Box sx={{ mt: { xs: 4, md: 6 } }}>{children}</Box>}
      </Container>
    </Box>
  );
}
