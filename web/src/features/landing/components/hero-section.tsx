import { Box, Button, Chip, Container, Stack, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';

const badges = ['Designed for developers', 'Safe for enterprises', 'Loved by agents'];

export function HeroSection() {
  return (
    <Box component="section" aria-labelledby="hero-title" sx={{ py: { xs: 8, md: 14 } }}>
      <Container maxWidth="md" sx={{ textAlign: 'center' }}>
        <Typography
          id="hero-title"
          variant="h2"
          component="h1"
          sx={{ fontWeight: 800, fontSize: { xs: '2.25rem', md: '3.5rem' }, lineHeight: 1.1 }}
        >
          Payment integration and identity wallets for the agentic economy
        </Typography>
        <Typography variant="h6" component="p" color="text.secondary" sx={{ mt: 3 }}>
          Give every AI agent a wallet, a verifiable identity and spending rules, and let it pay
          for APIs, data and compute over open standards.
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mt: 5, justifyContent: 'center' }}>
          <Button component={RouterLink} to="#start-building" variant="contained" size="large">
            Get Sandbox Access
          </Button>
          <Button component={RouterLink} to="#flow" variant="outlined" size="large">
            See the Flow
          </Button>
        </Stack>
        <Stack direction="row" sx={{ mt: 4, justifyContent: 'center', flexWrap: 'wrap', gap: 1 }}>
          {badges.map((badge) => (
            <Chip key={badge} label={badge} variant="outlined" />
          ))}
        </Stack>
      </Container>
    </Box>
  );
}
