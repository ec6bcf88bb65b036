// The consent page's form: who is asking (the name it claims, and the host the browser returns
// to, large, since that is what a phishing client cannot fake), where its tokens will work, and
// the owner's choices: the agent it acts as (or a new one), the scopes it gets, a cap of its own
// and an expiry. Approve submits the form; Deny sends the owner back with a refusal.
import AddRounded from '@mui/icons-material/AddRounded';
import WarningAmberRounded from '@mui/icons-material/WarningAmberRounded';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  FormControl,
  FormControlLabel,
  FormGroup,
  FormHelperText,
  FormLabel,
  InputAdornment,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { OAUTH_SCOPE_DESCRIPTIONS, type ApproveOAuthRequestBody, type OAuthAuthorizationRequestView, type OAuthScope } from '@purser/core';
import { useState, type FormEvent } from 'react';
import {
  clientLabel,
  consentInput,
  EXPIRY_CHOICES,
  initialConsentForm,
  isLoopbackRedirect,
  redirectHost,
  toggleScope,
  type ConsentField,
  type ConsentForm as ConsentFormState,
  type ExpiryChoice,
} from '../utils/consent-form';

const MONO = 'ui-monospace, SFMono-Regular, Menlo, monospace';

const SCOPE_TITLES: Record<OAuthScope, string> = { read: 'Read', pay: 'Pay', fetch: 'Paid HTTP calls' };

export interface ConsentAgent {
  id: string;
  name: string;
  status: string;
}

export interface ConsentFormProps {
  request: OAuthAuthorizationRequestView;
  agents: readonly ConsentAgent[];
  /** Which decision is on its way to the server (the buttons lock), or none. */
  busy: 'approve' | 'deny' | null;
  /** The server's refusal of the last decision, shown above the buttons. */
  error: string | null;
  /** The agent to select, e.g. one just created on the spot. */
  selectAgentId?: string | null;
  onApprove: (input: ApproveOAuthRequestBody) => void;
  onDeny: () => void;
  onCreateAgent: () => void;
  /** The clock for the expiry (tests fix it). */
  now?: () => Date;
}

export function ConsentForm({ request, agents, busy, error, selectAgentId = null, onApprove, onDeny, onCreateAgent, now = () => new Date() }: ConsentFormProps) {
  const [form, setForm] = useState<ConsentFormState>(() => initialConsentForm(request, agents));
  const [errors, setErrors] = useState<Partial<Record<ConsentField, string>>>({});
  const [selected, setSelected] = useState<string | null>(selectAgentId);
  // A new agent made on the spot becomes the choice (once, when the page hands it over).
  if (selectAgentId !== selected) {
    setSelected(selectAgentId);
    if (selectAgentId) setForm((current) => ({ ...current, agentId: selectAgentId }));
  }
  const locked = busy !== null;
  const name = clientLabel(request.client);
  const host = redirectHost(request.redirectUri);
  const loopback = isLoopbackRedirect(request.redirectUri);

  const change = (patch: Partial<ConsentFormState>, field: ConsentField) => {
    setForm((current) => ({ ...current, ...patch }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (locked) return;
    const result = consentInput(request.requestId, form, now());
    if (!result.ok) {
      setErrors(result.errors);
      const first = (['agentId', 'scopes', 'cap', 'expiry'] as const).find((field) => result.errors[field]);
      if (first && typeof document !== 'undefined') document.getElementById(`consent-${first}`)?.focus();
      return;
    }
    onApprove(result.input);
  };

  return (
    <Box component="form" noValidate onSubmit={submit} aria-labelledby="consent-title">
      <Stack spacing={3}>
        <Box>
          <Typography id="consent-title" variant="h5" component="h1" sx={{ fontWeight: 700, textWrap: 'balance', overflowWrap: 'anywhere' }}>
            {name} wants to use one of your agents
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
            It will act as the agent you choose, with what you allow below. The agent&apos;s own spending rules still apply.
          </Typography>
        </Box>

        <Box component="section" aria-labelledby="consent-client-heading" sx={{ p: 2, borderRadius: 2, border: 1, borderColor: 'divider', bgcolor: 'action.hover' }}>
          <Typography id="consent-client-heading" variant="overline" component="h2" color="text.secondary" sx={{ lineHeight: 1.5 }}>
            After you decide, you go back to
          </Typography>
          <Typography data-testid="consent-redirect-host" sx={{ fontFamily: MONO, fontWeight: 700, fontSize: { xs: '1.15rem', sm: '1.35rem' }, overflowWrap: 'anywhere' }}>
            {host}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ fontFamily: MONO, overflowWrap: 'anywhere' }}>
            {request.redirectUri}
          </Typography>
          <Stack direction="row" spacing={1} sx={{ mt: 1.5, alignItems: 'flex-start' }}>
            <WarningAmberRounded fontSize="small" color="warning" aria-hidden sx={{ mt: '2px' }} />
            <Typography variant="body2">
              {loopback
                ? 'An app on this computer. Continue only if you just started connecting it.'
                : `Purser does not check the name "${name}". Continue only if you know ${host}.`}
            </Typography>
          </Stack>
          <Box component="dl" sx={{ m: 0, mt: 1.5, display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'auto 1fr' }, columnGap: 2, rowGap: 0.5 }}>
            <Typography component="dt" variant="body2" color="text.secondary">
              Client ID
            </Typography>
            <Typography component="dd" variant="body2" sx={{ m: 0, fontFamily: MONO, overflowWrap: 'anywhere' }}>
              {request.client.id}
            </Typography>
            {request.client.uri ? (
              <>
                <Typography component="dt" variant="body2" color="text.secondary">
                  Website
                </Typography>
                <Typography component="dd" variant="body2" sx={{ m: 0, fontFamily: MONO, overflowWrap: 'anywhere' }}>
                  {request.client.uri}
                </Typography>
              </>
            ) : null}
            <Typography component="dt" variant="body2" color="text.secondary">
              Works on
            </Typography>
            <Typography component="dd" variant="body2" sx={{ m: 0, fontFamily: MONO, overflowWrap: 'anywhere' }}>
              {request.resource}
            </Typography>
          </Box>
        </Box>

        <Stack spacing={1}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { xs: 'stretch', sm: 'flex-start' } }}>
            <TextField
              id="consent-agentId"
              select
              label="Act as agent"
              value={form.agentId}
              onChange={(event) => change({ agentId: event.target.value }, 'agentId')}
              disabled={locked}
              error={Boolean(errors.agentId)}
              helperText={errors.agentId ?? (agents.length === 0 ? 'You have no agents yet: create one.' : 'Payments it makes come from this agent’s wallet.')}
              fullWidth
              slotProps={{ select: { displayEmpty: false } }}
            >
              {agents.map((agent) => (
                <MenuItem key={agent.id} value={agent.id} disabled={agent.status !== 'active'}>
                  {agent.status === 'active' ? agent.name : `${agent.name} (${agent.status})`}
                </MenuItem>
              ))}
            </TextField>
            <Button variant="outlined" startIcon={<AddRounded />} onClick={onCreateAgent} disabled={locked} sx={{ flexShrink: 0, mt: { sm: 1 }, whiteSpace: 'nowrap' }}>
              New agent
            </Button>
          </Stack>
        </Stack>

        <FormControl component="fieldset" error={Boolean(errors.scopes)} disabled={locked}>
          <FormLabel component="legend" sx={{ mb: 0.5 }}>
            What it may do
          </FormLabel>
          <FormGroup id="consent-scopes" tabIndex={-1} aria-describedby={errors.scopes ? 'consent-scopes-error' : undefined}>
            {request.scopes.map((scope) => (
              <FormControlLabel
                key={scope}
                sx={{ alignItems: 'flex-start', mb: 0.5 }}
                control={
                  <Checkbox
                    checked={form.scopes.includes(scope)}
                    onChange={(event) => change({ scopes: toggleScope(request.scopes, form.scopes, scope, event.target.checked) }, 'scopes')}
                    slotProps={{ input: { 'aria-describedby': `consent-scope-${scope}-description` } }}
                    sx={{ mt: -0.75 }}
                  />
                }
                label={
                  <Box>
                    <Typography component="span" sx={{ fontWeight: 600 }}>
                      {SCOPE_TITLES[scope]}
                    </Typography>
                    <Typography id={`consent-scope-${scope}-description`} variant="body2" color="text.secondary">
                      {OAUTH_SCOPE_DESCRIPTIONS[scope]}
                    </Typography>
                  </Box>
                }
              />
            ))}
          </FormGroup>
          {errors.scopes ? <FormHelperText id="consent-scopes-error">{errors.scopes}</FormHelperText> : null}
        </FormControl>

        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <TextField
            id="consent-cap"
            label="Spending cap (optional)"
            value={form.cap}
            onChange={(event) => change({ cap: event.target.value }, 'cap')}
            disabled={locked}
            error={Boolean(errors.cap)}
            helperText={errors.cap ?? 'The most it may spend in all. Empty: only the agent’s rules limit it.'}
            fullWidth
            slotProps={{
              htmlInput: { inputMode: 'decimal', autoComplete: 'off' },
              input: { startAdornment: <InputAdornment position="start">$</InputAdornment> },
            }}
          />
          <TextField
            id="consent-expiry"
            select
            label="Connection expires"
            value={form.expiry}
            onChange={(event) => change({ expiry: event.target.value as ExpiryChoice }, 'expiry')}
            disabled={locked}
            error={Boolean(errors.expiry)}
            helperText={errors.expiry ?? 'You can revoke it any time on the agent’s page.'}
            fullWidth
          >
            {EXPIRY_CHOICES.map((choice) => (
              <MenuItem key={choice.value} value={choice.value}>
                {choice.value === 'never' ? 'Never' : `In ${choice.label}`}
              </MenuItem>
            ))}
          </TextField>
        </Stack>

        {error ? (
          <Alert severity="error" role="alert">
            {error}
          </Alert>
        ) : null}

        <Stack direction={{ xs: 'column-reverse', sm: 'row' }} spacing={1.5} sx={{ justifyContent: 'flex-end' }}>
          <Button type="button" variant="outlined" color="inherit" onClick={onDeny} disabled={locked} size="large">
            {busy === 'deny' ? 'Denying...' : 'Deny'}
          </Button>
          <Button type="submit" variant="contained" disabled={locked} size="large">
            {busy === 'approve' ? 'Approving...' : 'Approve'}
          </Button>
        </Stack>
      </Stack>
    </Box>
  );
}
