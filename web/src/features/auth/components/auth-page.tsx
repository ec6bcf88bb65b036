// Route '/auth': sign in or sign up (spec section 2). Owners who already have a session are
// sent on to the dashboard, and so is everyone who signs in or up here, unless a guarded page
// sent them with `?next=` (utils/return-path.ts): then back to that page.
import { Box, Card, CardContent, Link, Stack, Tab, Tabs, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { Link as RouterLink, Navigate, useNavigate, useSearchParams } from 'react-router';
import { BackToHomeLink } from '../../../shared/components/back-to-home-link';
import { BrandLink } from '../../../shared/components/brand-link';
import { LoadingScreen } from '../../../shared/components/loading-screen';
import type { Session } from '../../../shared/session/session-store';
import { useSessionStore } from '../../../shared/session/use-session-store';
import { ASSISTANT_BUTTON_CLEARANCE } from '../../../shared/layout/assistant-button-space';
import { SignInFormPanel } from './sign-in-form';
import { SignUpFormPanel } from './sign-up-form';
import { returnPath } from '../utils/return-path';

type AuthTab = 'sign-in' | 'sign-up';

export function AuthPage() {
  const [tab, setTab] = useState<AuthTab>('sign-in');
  const status = useSessionStore((state) => state.status);
  const check = useSessionStore((state) => state.check);
  const setSession = useSessionStore((state) => state.setSession);
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const next = returnPath(searchParams.get('next'));

  useEffect(() => {
    if (status === 'unknown') void check();
  }, [status, check]);

  const enter = (session: Session) => {
    setSession(session, 'SIGNED_IN');
    void navigate(next, { replace: true });
  };

  if (status === 'signed-in') return <Navigate to={next} replace />;
  // Until the first check answers, a signed-in owner would see the forms flash by.
  if (status !== 'signed-out') return <LoadingScreen />;

  return (
    <Box
      component="main"
      sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', px: 2, pt: { xs: 2, sm: 4 }, pb: { xs: ASSISTANT_BUTTON_CLEARANCE.xs, sm: 4 }, bgcolor: 'background.default' }}
    >
      <Stack spacing={2} sx={{ width: '100%', maxWidth: 440 }}>
        <Box>
          <BackToHomeLink />
        </Box>
        <Card variant="outlined">
          <CardContent sx={{ p: { xs: 2.5, sm: 4 } }}>
            <Stack spacing={3}>
              <BrandLink />
              <Box>
                <Typography variant="h5" component="h1" sx={{ fontWeight: 700, textWrap: 'balance' }}>
                  Wallets for You and Your AI Agents
                </Typography>
                <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
                  {tab === 'sign-in'
                    ? 'Sign in to manage your wallet and your agents.'
                    : 'Access is invite-only: sign up with the invitation code from your sandbox access.'}
                </Typography>
              </Box>
              <Tabs
                value={tab}
                onChange={(_, value: AuthTab) => setTab(value)}
                variant="fullWidth"
                aria-label="Sign in or sign up"
              >
                <Tab value="sign-in" label="Sign In" id="auth-tab-sign-in" aria-controls="auth-panel-sign-in" />
                <Tab value="sign-up" label="Sign Up" id="auth-tab-sign-up" aria-controls="auth-panel-sign-up" />
              </Tabs>
              <Box role="tabpanel" id={`auth-panel-${tab}`} aria-labelledby={`auth-tab-${tab}`}>
                {tab === 'sign-in' ? <SignInFormPanel onSignedIn={enter} /> : <SignUpFormPanel onSignedUp={enter} />}
              </Box>
              <Typography variant="body2" color="text.secondary" sx={{ textAlign: 'center' }}>
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
