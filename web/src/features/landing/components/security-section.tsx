// Landing section 7, 'Security and compliance': what protects owners and agents, as the
// security whitepaper (docs-content/security/whitepaper.md) describes the product, and the
// whitepaper itself as markdown and PDF. Both files are static files of the web build
// (web/vite.config.ts), so the links are plain links, not client-side routes.
import { Box, Button, Paper, Stack, Typography } from '@mui/material';
import { LandingSection } from './landing-section';

const WHITEPAPER_MARKDOWN_URL = '/security-whitepaper.md';
const WHITEPAPER_PDF_URL = '/security-whitepaper.pdf';

interface Safeguard {
  title: string;
  text: string;
}

const SAFEGUARDS: readonly Safeguard[] = [
  {
    title: 'API keys shown once',
    text: 'Owner and agent keys carry 256 random bits, are shown once when created or rotated, and are stored only as SHA-256 hashes compared in constant time. An agent needs its DID and its key: a DID alone never authenticates.',
  },
  {
    title: 'Agent keys encrypted at rest',
    text: 'Agents’ private keys and webhook secrets are encrypted with AES-256-GCM under a master key, each bound to its own record, and are decrypted only inside the server to sign.',
  },
  {
    title: 'Spending rules and holds',
    text: 'Every payment passes the policy and KYA gate, and the limits are checked again under the agent wallet’s lock when its funds are held, so a burst of payments cannot overspend a balance, a cap or a daily limit.',
  },
  {
    title: 'x402 authorisations checked',
    text: 'A seller’s price is read once; the EIP-3009 authorisation the agent signs is decoded and compared with what was priced and held before it leaves, is valid for minutes, and is cancelled on chain if the payment ends early.',
  },
  {
    title: 'A ledger the database guards',
    text: 'Money moves only through double-entry postings that must balance, cannot be edited or deleted, and can never take a balance below zero: the database refuses it, not only the code.',
  },
  {
    title: 'Hash-chained audit log',
    text: 'Sign-ups, key, agent and policy changes and every intent’s steps are appended to a log in which each event holds the hash of the one before; updates and deletes are refused, and a verify command finds any break.',
  },
];

export function SecuritySection() {
  return (
    <LandingSection
      id="security"
      title="Security and compliance"
      lead="Every party a payment touches may lie or be compromised, so each protection is enforced where it cannot be skipped: in the server, the workflow or the database. Purser is an invite-only sandbox today: balances are test money and the card, bank and Solana rails are simulators."
    >
      <Box
        component="ul"
        sx={{ listStyle: 'none', p: 0, m: 0, mt: 4, display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}
      >
        {SAFEGUARDS.map((safeguard) => (
          <Paper key={safeguard.title} component="li" variant="outlined" sx={{ p: 2.5, borderTop: 3, borderTopColor: 'primary.main' }}>
            <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 700 }}>
              {safeguard.title}
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
              {safeguard.text}
            </Typography>
          </Paper>
        ))}
      </Box>

      <Paper variant="outlined" sx={{ mt: 4, p: { xs: 2.5, sm: 3 }, display: 'flex', gap: 2, flexDirection: { xs: 'column', sm: 'row' }, alignItems: { sm: 'center' } }}>
        <Box sx={{ flex: 1 }}>
          <Typography variant="h6" component="h3" sx={{ fontWeight: 700 }}>
            Security whitepaper
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
            Keys, sessions, identity, the payment engine, the ledger, the audit log, webhooks, and the limits we know about.
          </Typography>
        </Box>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
          <Button variant="contained" href={WHITEPAPER_PDF_URL}>
            Whitepaper (PDF)
          </Button>
          <Button variant="outlined" href={WHITEPAPER_MARKDOWN_URL} download="purser-security-whitepaper.md">
            Whitepaper (Markdown)
          </Button>
        </Stack>
      </Paper>
    </LandingSection>
  );
}
