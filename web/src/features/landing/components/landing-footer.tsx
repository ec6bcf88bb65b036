// The landing page's footer (product spec section 2, item 11): the address, the legal links
// and the resources, above the copyright line (page year 2025, spec section 9).
import { Box, Container, Link, Stack, Typography } from '@mui/material';
import { CONTACT_EMAILS } from '@purser/docs-content/browser';
import { Link as RouterLink } from 'react-router';
import { BrandLink } from '../../../shared/components/brand-link';
import { ASSISTANT_BUTTON_CLEARANCE } from '../../../shared/layout/assistant-button-space';

const groups = [
  {
    title: 'Legal',
    links: [
      { label: 'Terms of Service', to: '/terms' },
      { label: 'Privacy Policy', to: '/privacy' },
      { label: 'Data Processing Addendum', to: '/dpa' },
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

/** A placeholder postal address until the company's registered office is published. */
const POSTAL_ADDRESS = ['Purser Technologies Inc.', '100 Example Street, Suite 400', 'Toronto, ON M5V 0A0', 'Canada'] as const;

export function LandingFooter() {
  return (
    <Box component="footer" sx={{ borderTop: 1, borderColor: 'divider', bgcolor: 'background.paper', pt: { xs: 6, md: 8 }, pb: ASSISTANT_BUTTON_CLEARANCE }}>
      <Container maxWidth="lg">
        <Box sx={{ display: 'grid', gap: { xs: 5, md: 6 }, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', md: '2fr 1fr 1fr' } }}>
          <Box sx={{ gridColumn: { sm: '1 / -1', md: 'auto' } }}>
            <BrandLink />
            <Typography color="text.secondary" sx={{ mt: 2, maxWidth: 360 }}>
              Payments and identity wallets for AI agents, on open standards.
            </Typography>
            <Box component="address" sx={{ mt: 3, fontStyle: 'normal', color: 'text.secondary', typography: 'body2', lineHeight: 1.7 }}>
              {POSTAL_ADDRESS.map((line) => (
                <Box component="span" key={line} sx={{ display: 'block' }}>
                  {line}
                </Box>
              ))}
              <Link href={`mailto:${CONTACT_EMAILS.support}`} color="inherit" underline="always" sx={{ display: 'inline-block', mt: 1 }}>
                {CONTACT_EMAILS.support}
              </Link>
            </Box>
          </Box>
          {groups.map((group) => (
            <Box key={group.title} component="nav" aria-label={group.title}>
              <Typography variant="subtitle2" component="h2" sx={{ fontWeight: 700 }}>
                {group.title}
              </Typography>
              <Stack component="ul" spacing={1.25} sx={{ listStyle: 'none', p: 0, m: 0, mt: 2 }}>
                {group.links.map((link) => (
                  <li key={link.to}>
                    <Link component={RouterLink} to={link.to} color="text.secondary" underline="hover">
                      {link.label}
                    </Link>
                  </li>
                ))}
              </Stack>
            </Box>
          ))}
        </Box>
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={1}
          sx={{ mt: { xs: 5, md: 6 }, pt: 3, borderTop: 1, borderColor: 'divider', justifyContent: 'space-between' }}
        >
          <Typography variant="body2" color="text.secondary">
            © 2025 Purser
          </Typography>
          <Typography variant="body2" color="text.secondary">
            Invite-only sandbox. Test networks move no real money.
          </Typography>
        </Stack>
      </Container>
    </Box>
  );
}
