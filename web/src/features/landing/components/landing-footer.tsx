import { Box, Container, Link, Stack, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';

const groups = [
  {
    title: 'Legal',
    links: [
      { label: 'Terms of Service', to: '/terms' },
      { label: 'Privacy Policy', to: '/privacy' },
      { label: 'Data Processing Agreement', to: '/dpa' },
    ],
  },
  {
    title: 'Resources',
    links: [
      { label: 'Documentation', to: '/docs' },
      { label: 'Status', to: '/status' },
      { label: 'Responsible AI', to: '/responsible-ai' },
    ],
  },
];

export function LandingFooter() {
  return (
    <Box component="footer" sx={{ borderTop: 1, borderColor: 'divider', py: 6 }}>
      <Container maxWidth="lg">
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={6} sx={{ justifyContent: 'space-between' }}>
          <Typography color="text.secondary">© 2025 Purser</Typography>
          {groups.map((group) => (
            <Stack key={group.title} component="nav" aria-label={group.title} spacing={1}>
              <Typography variant="subtitle2">{group.title}</Typography>
              {group.links.map((link) => (
                <Link key={link.to} component={RouterLink} to={link.to} color="text.secondary" underline="hover">
                  {link.label}
                </Link>
              ))}
            </Stack>
          ))}
        </Stack>
      </Container>
    </Box>
  );
}
