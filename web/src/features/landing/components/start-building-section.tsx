// "Start building today" (product spec section 2, item 9): access is invite-only, so the call
// to action books an intro call on the external scheduling page, in a new tab.
import CalendarMonthRounded from '@mui/icons-material/CalendarMonthRounded';
import KeyRounded from '@mui/icons-material/KeyRounded';
import OpenInNewRounded from '@mui/icons-material/OpenInNewRounded';
import RocketLaunchRounded from '@mui/icons-material/RocketLaunchRounded';
import { Box, Button, Paper, Stack, Typography } from '@mui/material';
import { alpha } from '@mui/material/styles';
import { BOOKING_URL } from '@purser/docs-content/browser';
import { Link as RouterLink } from 'react-router';
import { visuallyHidden } from '../../../shared/a11y/visually-hidden';
import { LandingSection } from './landing-section';

const steps = [
  { icon: CalendarMonthRounded, title: 'Book an intro call', text: 'Tell us what your agents need to pay for.' },
  { icon: KeyRounded, title: 'Get sandbox access', text: 'Receive sandbox credentials and an invitation code.' },
  { icon: RocketLaunchRounded, title: 'Create your first agent', text: 'Sign up, fund an agent and make a test payment.' },
];

export function StartBuildingSection() {
  return (
    <LandingSection
      id="start-building"
      eyebrow="Get started"
      title="Start building today"
      lead="Access is invite-only. Book an intro call with the team to receive sandbox credentials and an invitation code."
    >
      <Paper
        variant="outlined"
        sx={(theme) => ({
          borderRadius: 2.5,
          p: { xs: 3, md: 5 },
          backgroundImage: `linear-gradient(135deg, ${alpha(theme.palette.primary.main, 0.14)}, ${alpha(theme.palette.secondary.main, 0.1)})`,
        })}
      >
        <Box
          component="ol"
          sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: 'repeat(3, 1fr)' } }}
        >
          {steps.map(({ icon: Icon, title, text }, index) => (
            <Box component="li" key={title} sx={{ display: 'flex', gap: 2, alignItems: 'flex-start' }}>
              <Box
                aria-hidden
                sx={{
                  display: 'grid',
                  placeItems: 'center',
                  width: 44,
                  height: 44,
                  borderRadius: '50%',
                  flexShrink: 0,
                  bgcolor: 'background.paper',
                  color: 'primary.main',
                  border: 1,
                  borderColor: 'divider',
                }}
              >
                <Icon />
              </Box>
              <Box>
                <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 700 }}>
                  {index + 1}. {title}
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  {text}
                </Typography>
              </Box>
            </Box>
          ))}
        </Box>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mt: { xs: 4, md: 5 }, justifyContent: 'center' }}>
          <Button
            component="a"
            href={BOOKING_URL}
            target="_blank"
            rel="noopener noreferrer"
            variant="contained"
            size="large"
            disableElevation
            endIcon={<OpenInNewRounded aria-hidden />}
          >
            Request Sandbox
            <Box component="span" sx={visuallyHidden}>
              {' '}
              (opens in a new tab)
            </Box>
          </Button>
          <Button component={RouterLink} to="/docs" variant="outlined" size="large" sx={{ bgcolor: 'background.paper' }}>
            Read the docs
          </Button>
        </Stack>
      </Paper>
    </LandingSection>
  );
}
