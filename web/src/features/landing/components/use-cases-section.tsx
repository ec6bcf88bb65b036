// Use cases (product spec section 2, item 8): what teams do with Purser today. The first,
// paying for APIs per call with x402, is shown larger with the exchange it makes.
import AccountTreeRounded from '@mui/icons-material/AccountTreeRounded';
import ApiRounded from '@mui/icons-material/ApiRounded';
import GroupsRounded from '@mui/icons-material/GroupsRounded';
import MemoryRounded from '@mui/icons-material/MemoryRounded';
import SubscriptionsRounded from '@mui/icons-material/SubscriptionsRounded';
import { Box, Chip, Paper, Stack, Typography } from '@mui/material';
import { alpha } from '@mui/material/styles';
import { USE_CASES, type UseCase } from '../data/use-cases';
import { LandingSection } from './landing-section';
import { IconTile } from './icon-tile';

const useCaseIcons: Record<UseCase['id'], typeof ApiRounded> = {
  'paid-apis': ApiRounded,
  'data-compute': MemoryRounded,
  automations: AccountTreeRounded,
  subscriptions: SubscriptionsRounded,
  fleets: GroupsRounded,
};

// The sandbox's own paid API, as an agent meets it (docs/agent-api.md, "The chain").
const exchange = [
  { step: 'x402_fetch /sandbox/paid/weather, max_amount 0.05', result: 'Purser calls the URL for the agent' },
  { step: 'GET /sandbox/paid/weather', result: '402 Payment Required: $0.01 in USDC' },
  { step: 'Policy and KYA gate', result: 'Allowed; EIP-3009 authorisation signed' },
  { step: 'GET with PAYMENT-SIGNATURE', result: '200 OK, settled on chain' },
];

export function UseCasesSection() {
  return (
    <LandingSection
      id="use-cases"
      eyebrow="Use cases"
      title="What agents pay for with Purser"
      lead="From a cent per API call to a fleet’s monthly budget, every payment runs through the same intents, rules and audit trail."
    >
      <Box
        component="ul"
        sx={{
          listStyle: 'none',
          p: 0,
          m: 0,
          display: 'grid',
          gap: 2.5,
          gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', md: 'repeat(3, 1fr)' },
          '& > li:first-of-type': { gridColumn: { sm: '1 / -1', md: 'span 2' } },
        }}
      >
        {USE_CASES.map((useCase, index) => (
          <li key={useCase.id} data-testid={`use-case-${useCase.id}`}>
            <UseCaseCard useCase={useCase} featured={index === 0} />
          </li>
        ))}
      </Box>
    </LandingSection>
  );
}

function UseCaseCard({ useCase, featured }: { useCase: UseCase; featured: boolean }) {
  const Icon = useCaseIcons[useCase.id];
  return (
    <Paper
      variant="outlined"
      sx={(theme) => ({
        p: 3,
        height: '100%',
        borderRadius: 2,
        display: 'grid',
        gap: 3,
        gridTemplateColumns: { xs: '1fr', md: featured ? '1fr 1fr' : '1fr' },
        ...(featured && {
          backgroundImage: `linear-gradient(135deg, ${alpha(theme.palette.primary.main, 0.1)}, ${alpha(theme.palette.secondary.main, 0.06)})`,
        }),
      })}
    >
      <Box sx={{ display: 'flex', flexDirection: 'column' }}>
        <IconTile tone="secondary">
          <Icon />
        </IconTile>
        <Typography variant="h6" component="h3" sx={{ mt: 2, fontWeight: 700 }}>
          {useCase.title}
        </Typography>
        <Typography color="text.secondary" sx={{ mt: 1, flexGrow: 1 }}>
          {useCase.text}
        </Typography>
        <Stack direction="row" aria-label="Built on" component="ul" sx={{ listStyle: 'none', p: 0, m: 0, mt: 2, flexWrap: 'wrap', gap: 1 }}>
          {useCase.uses.map((use) => (
            <li key={use}>
              <Chip label={use} size="small" variant="outlined" />
            </li>
          ))}
        </Stack>
      </Box>
      {featured && <X402Exchange />}
    </Paper>
  );
}

function X402Exchange() {
  return (
    <Box
      component="ol"
      aria-label="An x402 payment, step by step"
      sx={{
        listStyle: 'none',
        m: 0,
        p: 2.5,
        borderRadius: 1.5,
        alignSelf: 'center',
        bgcolor: '#0b1020',
        color: '#e2e8f0',
        fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
        fontSize: '0.8125rem',
        display: 'grid',
        gap: 1.75,
        minWidth: 0,
      }}
    >
      {exchange.map((line, index) => (
        <li key={line.step}>
          <Box component="span" sx={{ color: '#a5b4fc' }}>
            {index + 1}.{' '}
          </Box>
          <Box component="span" sx={{ overflowWrap: 'anywhere' }}>
            {line.step}
          </Box>
          <Box component="span" sx={{ display: 'block', color: '#5eead4', pl: 2.25 }}>
            {'→ '}
            {line.result}
          </Box>
        </li>
      ))}
    </Box>
  );
}
