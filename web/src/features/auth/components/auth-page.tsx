// Route '/auth': sign in or sign up. The forms arrive with the authentication work;
// this page already sends owners who have a session on to the dashboard.
import { Box, Card, CardContent, Link, Stack, Tab, Tabs, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { Link as RouterLink, Navigate } from 'react-router';
import { BackToHomeLink } from '../../../shared/components/back-to-home-link';
import { BrandLink } from '../../../shared/components/brand-link';
import { useSessionStore } from '../../../shared/session/use-session-store';

type AuthTab = 'sign-in' | 'sign-up';

export function AuthPage() {
  const [tab, setTab] = useState<AuthTab>('sign-in');
  const status = useSessionStore((state) => state.status);
  const check = useSessionStore((state) => state.check);

  useEffect(() => {
    if (status === 'unknown') void check();
  }, [status, check]);

  if (status === 'signed-in') return <Navigate to="/dashboard" replace />;

  return (
    <Box sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', p: 2, bgcolor: 'background.default' }}>
      <Stack spacing={2} sx={{ width: '100%', maxWidth: 440 }}>
        <Box>
          <BackToHomeLink />
        </Box>
        <Card variant="outlined">
          <CardContent>
            <Stack spacing={3}>
              <BrandLink />
              <Typography variant="h5" component="h1" sx={{ fontWeight: 700 }}>
                Wallets for You and Your AI Agents
              </Typography>
              <Tabs value={tab} onChange={(_, value: AuthTab) => setTab(value)} variant="fullWidth">
                <Tab value="sign-in" label="Sign In" id="auth-tab-sign-in" aria-controls="auth-tab-panel" />
                <Tab value="sign-up" label="Sign Up" id="auth-tab-sign-up" aria-controls="auth-tab-panel" />
              </Tabs>
              <Typography color="text.secondary" role="tabpanel" id="auth-tab-panel" aria-labelledby={`auth-tab-${tab}`}>
                {tab === 'sign-in'
                  ? 'Sign in with the email and password of your owner account.'
                  : 'Purser is invite-only: signing up needs the invitation code you received with your sandbox access.'}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                By continuing you agree to our{' '}
                <Link component={RouterLink} to="/terms">
                  Terms of Service
                </Link>{' '}
                and{' '}
                <Link component={RouterLink} to="/privacy">
                  Privacy Policy
                </Link>
                .
              </Typography>
            </Stack>
          </CardContent>
        </Card>
      </Stack>
    </Box>
  );
}
