// Quick links of /docs (spec section 2): sign-in, the dashboard and the two protocols' own
// specifications (external, opened in a new tab).
import ArrowForwardRounded from '@mui/icons-material/ArrowForwardRounded';
import OpenInNewRounded from '@mui/icons-material/OpenInNewRounded';
import { Box, Card, CardActionArea, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';

interface QuickLink {
  title: string;
  description: string;
  to: string;
  external: boolean;
}

export const QUICK_LINKS: readonly QuickLink[] = [
  { title: 'Sign in', description: 'Sign in or create an account with an invitation code.', to: '/auth', external: false },
  { title: 'Dashboard', description: 'Your wallet, your agents and their payments.', to: '/dashboard', external: false },
  { title: 'x402 specification', description: 'The HTTP 402 payment protocol, by Coinbase.', to: 'https://github.com/coinbase/x402', external: true },
  { title: 'MCP specification', description: 'The Model Context Protocol that agents call tools with.', to: 'https://modelcontextprotocol.io/specification', external: true },
];

export function DocsQuickLinks() {
  return (
    <Box component="ul" aria-label="Quick links" sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1.5, gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(4, minmax(0, 1fr))' } }}>
      {QUICK_LINKS.map((link) => (
        <li key={link.to}>
          <Card variant="outlined" sx={{ height: '100%' }}>
            <CardActionArea
              {...(link.external
                ? { component: 'a', href: link.to, target: '_blank', rel: 'noopener noreferrer' }
                : { component: RouterLink, to: link.to })}
              sx={{ height: '100%', p: { xs: 1.5, sm: 2 }, display: 'flex', flexDirection: 'column', alignItems: 'stretch', justifyContent: 'flex-start' }}
            >
              <Typography component="span" sx={{ fontWeight: 700, display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1 }}>
                {link.title}
                {link.external ? <OpenInNewRounded fontSize="small" color="primary" aria-hidden /> : <ArrowForwardRounded fontSize="small" color="primary" aria-hidden />}
              </Typography>
              {/* Phones show the four links as compact tiles, without the descriptions. */}
              <Typography component="span" variant="body2" color="text.secondary" sx={{ mt: 0.5, display: { xs: 'none', sm: 'block' } }}>
                {link.description}
              </Typography>
            </CardActionArea>
          </Card>
        </li>
      ))}
    </Box>
  );
}
