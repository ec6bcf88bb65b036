// The connect page's setup cards that follow from the agent alone: its DID, spending rules,
// the MCP endpoints, the paid fetch (x402 and MPP sellers), the x402 flow step by step, the
// credential and the workflow checklist.
import CheckCircleOutlineRounded from '@mui/icons-material/CheckCircleOutlineRounded';
import { Box, Chip, Link, List, ListItem, ListItemIcon, ListItemText, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { SectionCard } from '../../../shared/components/section-card';
import { CopyButton, CopyTextButton } from './copy-button';

const DOLLARS = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });

export function CopyableValue({ value, thing }: { value: string; thing: string }) {
  return (
    <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', minWidth: 0 }}>
      <Typography component="code" sx={{ fontFamily: 'monospace', wordBreak: 'break-all', minWidth: 0 }}>
        {value}
      </Typography>
      <CopyButton value={value} thing={thing} />
    </Stack>
  );
}

export function AgentDidCard({ did }: { did: string }) {
  return (
    <SectionCard title="Agent DID" fill>
      <CopyableValue value={did} thing="Agent DID" />
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1.5, overflowWrap: 'anywhere' }}>
        Send this DID in the <code>X-Agent-DID</code> header of every MCP call, together with the agent&apos;s API key as a bearer token
        (<code>Authorization: Bearer &lt;key&gt;</code>). It tells the service which agent is paying.
      </Typography>
    </SectionCard>
  );
}

interface SpendingRules {
  max_transaction_amount: number;
  max_daily_limit: number;
  approval_threshold: number | null;
}

export function SpendingRulesCard({ rules }: { rules: SpendingRules | null }) {
  return (
    <SectionCard title="Spending Rules" fill>
      {rules ? (
        <Stack direction="row" spacing={4} useFlexGap sx={{ flexWrap: 'wrap' }}>
          <Figure label="Max per transaction" value={DOLLARS.format(rules.max_transaction_amount)} />
          <Figure label="Daily limit" value={DOLLARS.format(rules.max_daily_limit)} />
          {rules.approval_threshold !== null ? <Figure label="Owner approval above" value={DOLLARS.format(rules.approval_threshold)} /> : null}
        </Stack>
      ) : (
        <Typography color="text.secondary">No spending rules set.</Typography>
      )}
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1.5 }}>
        Both limits are checked before every MCP payment; a payment above them is refused.
      </Typography>
    </SectionCard>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Box>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="h6" component="p">
        {value}
      </Typography>
    </Box>
  );
}

interface Endpoint {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  tip: ReactNode;
}

const CORE_TOOLS: Endpoint[] = [
  { name: 'Balance', method: 'GET', path: '/balance', tip: 'USDC and USDT balances with network metadata. Check it before paying so a workflow can stop or ask for funding.' },
  {
    name: 'Payment',
    method: 'POST',
    path: '/payment',
    tip: 'Body: amount, currency, to_address, description, optional category and metadata (e.g. workflow, request_id). Send an Idempotency-Key so a retry never pays twice.',
  },
  { name: 'Transactions', method: 'GET', path: '/transactions', tip: 'The latest 50 transactions with categories and metadata, for reconciliation steps.' },
  { name: 'Info', method: 'GET', path: '/info', tip: 'DID, credential, wallet addresses, spending rules and x402 capabilities. A good first call to test the connection.' },
];

const PAID_FETCH: Endpoint[] = [
  {
    name: 'Paid fetch',
    method: 'POST',
    path: '/pay/fetch',
    tip: 'Body: url, optional method, headers, body, max_amount (dollars), description and category. Send an Idempotency-Key so a retry never pays twice. /x402/fetch is the same call under its first name.',
  },
];

/** The paid fetch as a copyable request: the agent's DID filled in, its API key left to the caller. */
function paidFetchExample(base: string, did: string): string {
  return [
    `curl -X POST "${base}/pay/fetch" \\`,
    `  -H "X-Agent-DID: ${did}" \\`,
    '  -H "Authorization: Bearer $AGENT_API_KEY" \\',
    '  -H "Content-Type: application/json" \\',
    `  -d '{"url": "https://api.example.com/paid/report", "max_amount": 0.05}'`,
  ].join('\n');
}

const X402_STEPS: Endpoint[] = [
  { name: 'Requirements', method: 'POST', path: '/x402/requirements', tip: "Send the upstream URL; read its accepts list and pick the requirement on network base-sepolia (answered as 'recommended')." },
  { name: 'Sign payment', method: 'POST', path: '/x402/sign-payment', tip: 'Send the chosen requirement; the answer carries xPaymentHeader once spending rules and balance allow it.' },
  { name: 'Proxy', method: 'POST', path: '/x402/proxy', tip: 'Send the original URL with the payment header; the upstream response comes back with its X-Payment-Response header.' },
];

function EndpointList({ base, endpoints, ordered = false }: { base: string; endpoints: Endpoint[]; ordered?: boolean }) {
  return (
    <Stack component={ordered ? 'ol' : 'ul'} spacing={2} sx={{ listStyle: 'none', p: 0, m: 0 }}>
      {endpoints.map((endpoint, index) => (
        <Box component="li" key={endpoint.path} sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5 }}>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }} useFlexGap>
            <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600 }}>
              {ordered ? `${index + 1}. ` : ''}
              {endpoint.name}
            </Typography>
            <Chip label={endpoint.method} size="small" variant="outlined" />
          </Stack>
          <CopyableValue value={`${base}${endpoint.path}`} thing={`${endpoint.name} endpoint`} />
          <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
            {endpoint.tip}
          </Typography>
        </Box>
      ))}
    </Stack>
  );
}

export function McpEndpointsCard({ base }: { base: string }) {
  return (
    <SectionCard title="MCP Base URL">
      <CopyableValue value={base} thing="MCP base URL" />
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1, mb: 2 }}>
        Point n8n, Make or a custom MCP client at this URL. Every call carries the X-Agent-DID header and the agent&apos;s API key.
      </Typography>
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, mb: 1 }}>
        Core tools
      </Typography>
      <EndpointList base={base} endpoints={CORE_TOOLS} />
    </SectionCard>
  );
}

export function PaidFetchCard({ base, did }: { base: string; did: string }) {
  const example = paidFetchExample(base, did);
  return (
    <SectionCard title="Paid Fetch: x402 and MPP">
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        One call pays an API that answers HTTP 402 Payment Required, whether its seller speaks x402 or MPP (the Machine Payments Protocol). The service
        calls the URL, pays its 402 within the agent&apos;s spending rules and your policies, never above max_amount, and answers with the seller&apos;s
        response.
      </Typography>
      <EndpointList base={base} endpoints={PAID_FETCH} />
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mt: 2, mb: 1 }}>
        <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
          Example request
        </Typography>
        <CopyTextButton value={example} thing="Paid fetch request" label="Copy" />
      </Stack>
      <Box
        component="pre"
        tabIndex={0}
        aria-label="Paid fetch request"
        sx={{ m: 0, p: 2, overflow: 'auto', bgcolor: 'action.hover', borderRadius: 1, fontSize: 12, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
      >
        {example}
      </Box>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
        The answer carries the seller&apos;s status, headers and body, and <code>payment.protocol</code> (<code>x402</code> or <code>mpp</code>); an MPP
        payment also carries <code>mpp_receipt</code>, the seller&apos;s receipt and whether the chain confirms it. When a seller offers both protocols,
        the agent pays in the one your{' '}
        <Link component={RouterLink} to="/dashboard/policies" underline="always">
          policies
        </Link>{' '}
        prefer, else the cheaper offer, then x402.
      </Typography>
    </SectionCard>
  );
}

export function X402FlowCard({ base }: { base: string }) {
  return (
    <SectionCard title="x402 Payment Flow">
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        When an API answers HTTP 402 Payment Required in x402, follow this sequence: read the requirements, sign the payment header, then call the API
        again through the proxy with that header. MPP sellers are paid with the paid fetch above, which pays x402 sellers in one call too.
      </Typography>
      <EndpointList base={base} endpoints={X402_STEPS} ordered />
      <Typography variant="body2" sx={{ mt: 2 }}>
        If the sign-payment step fails, the agent wallet usually needs funding (test USDC, and some ETH for gas on Base Sepolia) or the requirement exceeds
        the agent&apos;s spending limits.
      </Typography>
    </SectionCard>
  );
}

export function CredentialCard({ credential }: { credential: unknown }) {
  const json = credential ? JSON.stringify(credential) : null;
  return (
    <SectionCard title="Verifiable Credential">
      {json ? (
        <>
          <CopyTextButton value={json} thing="Verifiable credential" label="Copy JSON" />
          <Box
            component="pre"
            tabIndex={0}
            aria-label="Verifiable credential JSON"
            sx={{ mt: 2, mb: 0, p: 2, maxHeight: 360, overflow: 'auto', bgcolor: 'action.hover', borderRadius: 1, fontSize: 12, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
          >
            {JSON.stringify(credential, null, 2)}
          </Box>
        </>
      ) : (
        <Typography color="text.secondary">No verifiable credential available.</Typography>
      )}
    </SectionCard>
  );
}

export function WorkflowChecklistCard({ agentId }: { agentId: string }) {
  const steps: ReactNode[] = [
    'Fund the agent wallet from the dashboard (and, on Base Sepolia, with test USDC and some ETH for gas).',
    "Store the agent's API key and DID as credentials in your automation tool.",
    'Call Info to confirm the connection, then Balance before each spending step.',
    'Make payments with a category and metadata (workflow, request_id) so they are easy to find later.',
    'For paid APIs, x402 or MPP, call Paid fetch; to pay an x402 API step by step, follow the x402 flow: requirements, sign payment, proxy.',
    <>
      Review the results on the{' '}
      <Link component={RouterLink} to={`/dashboard/agents/${agentId}/transactions`} underline="always">
        transactions page
      </Link>
      .
    </>,
  ];
  return (
    <SectionCard title="Workflow Checklist">
      <List dense disablePadding>
        {steps.map((step, index) => (
          <ListItem key={index} disableGutters>
            <ListItemIcon sx={{ minWidth: 36 }}>
              <CheckCircleOutlineRounded color="success" fontSize="small" />
            </ListItemIcon>
            <ListItemText primary={step} />
          </ListItem>
        ))}
      </List>
    </SectionCard>
  );
}
