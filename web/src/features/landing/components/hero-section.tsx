// The landing page's first section (product spec section 2, item 1): the headline, the two
// calls to action and the three badges, beside a sample payment intent that shows the
// spec's landing samples (50 USD, daily cap 100, time-box 24h, max retries 3).
import ArrowForwardRounded from '@mui/icons-material/ArrowForwardRounded';
import CheckCircleRounded from '@mui/icons-material/CheckCircleRounded';
import CodeRounded from '@mui/icons-material/CodeRounded';
import FavoriteRounded from '@mui/icons-material/FavoriteRounded';
import VerifiedUserRounded from '@mui/icons-material/VerifiedUserRounded';
import { Box, Button, Chip, Container, Divider, Stack, Typography } from '@mui/material';
import { alpha } from '@mui/material/styles';
import type { ReactElement } from 'react';
import { Link as RouterLink } from 'react-router';
import { focusHashTarget } from '../utils/section-focus';

const badges: { label: string; icon: ReactElement }[] = [
  { label: 'Designed for developers', icon: <CodeRounded /> },
  { label: 'Safe for enterprises', icon: <VerifiedUserRounded /> },
  { label: 'Loved by agents', icon: <FavoriteRounded /> },
];

export function HeroSection() {
  return (
    <Box
      component="section"
      id="hero"
      aria-labelledby="hero-title"
      sx={(theme) => ({
        position: 'relative',
        overflow: 'hidden',
        py: { xs: 8, md: 12 },
        backgroundImage: `radial-gradient(60rem 30rem at 15% -10%, ${alpha(theme.palette.primary.main, 0.16)}, transparent 70%), radial-gradient(40rem 24rem at 95% 20%, ${alpha(theme.palette.secondary.main, 0.12)}, transparent 70%)`,
      })}
    >
      <Container maxWidth="lg">
        <Box
          sx={{
            display: 'grid',
            gap: { xs: 6, md: 8 },
            alignItems: 'center',
            gridTemplateColumns: { xs: '1fr', md: '7fr 5fr' },
          }}
        >
          <Box sx={{ textAlign: { xs: 'center', md: 'left' } }}>
            <Chip
              label="Invite-only sandbox, now open for intro calls"
              size="small"
              variant="outlined"
              color="primary"
              sx={{ mb: 3, fontWeight: 600, bgcolor: 'background.paper', maxWidth: '100%' }}
            />
            <Typography
              id="hero-title"
              variant="h2"
              component="h1"
              sx={{ fontWeight: 800, fontSize: { xs: '2.25rem', sm: '2.75rem', md: '3.5rem' }, lineHeight: 1.08, letterSpacing: '-0.03em' }}
            >
              Payment integration and identity wallets for the{' '}
              <Box component="span" sx={{ color: 'primary.main' }}>
                agentic economy
              </Box>
            </Typography>
            <Typography variant="h6" component="p" color="text.secondary" sx={{ mt: 3, fontWeight: 400, maxWidth: 620, mx: { xs: 'auto', md: 0 } }}>
              Give every AI agent a wallet, a verifiable identity and spending rules, and let it pay for APIs, data and compute
              over open standards.
            </Typography>
            <Stack
              direction={{ xs: 'column', sm: 'row' }}
              spacing={2}
              sx={{ mt: 5, justifyContent: { xs: 'center', md: 'flex-start' } }}
            >
              <Button
                component={RouterLink}
                to="#start-building"
                onClick={() => focusHashTarget('#start-building')}
                variant="contained"
                size="large"
                disableElevation
                endIcon={<ArrowForwardRounded />}
              >
                Get Sandbox Access
              </Button>
              <Button component={RouterLink} to="#flow" onClick={() => focusHashTarget('#flow')} variant="outlined" size="large">
                See the Flow
              </Button>
            </Stack>
            <Stack
              component="ul"
              direction="row"
              aria-label="Highlights"
              sx={{ listStyle: 'none', p: 0, m: 0, mt: 4, justifyContent: { xs: 'center', md: 'flex-start' }, flexWrap: 'wrap', gap: 1 }}
            >
              {badges.map((badge) => (
                <li key={badge.label}>
                  <Chip icon={badge.icon} label={badge.label} variant="outlined" sx={{ bgcolor: 'background.paper', '& .MuiChip-icon': { color: 'primary.main' } }} />
                </li>
              ))}
            </Stack>
          </Box>
          <SampleIntentCard />
        </Box>
      </Container>
    </Box>
  );
}

const checks = [
  { label: 'Daily cap', value: '100 USD, 50 left after this', passed: true },
  { label: 'KYA tier', value: 'basic (eIDAS low)', passed: true },
  { label: 'Time-box', value: '24h for an approval' },
  { label: 'Max retries', value: '3, one idempotency key' },
];

/** An illustration built from the spec's landing samples; it reads as text to assistive technology. */
function SampleIntentCard() {
  return (
    <Box
      component="figure"
      aria-labelledby="hero-sample-caption"
      sx={(theme) => ({
        m: 0,
        p: { xs: 2.5, sm: 3 },
        borderRadius: 2,
        border: 1,
        borderColor: 'divider',
        bgcolor: 'background.paper',
        boxShadow: `0 24px 60px -24px ${alpha(theme.palette.primary.main, theme.palette.mode === 'dark' ? 0.5 : 0.35)}`,
        width: '100%',
        maxWidth: 460,
        mx: 'auto',
      })}
    >
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="overline" component="p" color="text.secondary" sx={{ lineHeight: 1.5 }}>
            Payment intent
          </Typography>
          <Typography variant="body2" sx={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', overflowWrap: 'anywhere' }}>
            did:agnic:7c9e6679…0ae7
          </Typography>
        </Box>
        <Chip icon={<CheckCircleRounded />} label="Settled" color="success" size="small" sx={{ fontWeight: 700 }} />
      </Stack>
      <Typography component="p" sx={{ mt: 2, fontSize: '2.5rem', fontWeight: 800, letterSpacing: '-0.03em', lineHeight: 1.1 }}>
        50.00{' '}
        <Box component="span" sx={{ fontSize: '1.25rem', color: 'text.secondary', fontWeight: 600 }}>
          USD
        </Box>
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
        Market data API, paid in USDC over x402
      </Typography>
      <Divider sx={{ my: 2 }} />
      <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2, rowGap: 1.25 }}>
        {checks.map((check) => (
          <Box key={check.label} sx={{ display: 'contents' }}>
            <Typography component="dt" variant="body2" color="text.secondary">
              {check.label}
            </Typography>
            <Typography component="dd" variant="body2" sx={{ m: 0, fontWeight: 600, display: 'flex', gap: 0.75, alignItems: 'center' }}>
              {check.passed && <CheckCircleRounded aria-hidden sx={{ fontSize: 16, color: 'success.main' }} />}
              {check.value}
            </Typography>
          </Box>
        ))}
      </Box>
      <Typography
        id="hero-sample-caption"
        component="figcaption"
        variant="caption"
        color="text.secondary"
        sx={{ display: 'block', mt: 2 }}
      >
        A sample payment intent after the policy and KYA gate
      </Typography>
    </Box>
  );
}
