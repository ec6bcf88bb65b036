// Know Your Agent: the agent's tier with its eIDAS level of assurance and caps, a request to
// raise it (the tier asked for and the evidence that tier needs; a document is hashed in the
// browser and only its SHA-256 is sent), and every verification so far, verified or rejected.
import UploadFileRounded from '@mui/icons-material/UploadFileRounded';
import {
  Alert,
  Box,
  Button,
  Chip,
  Divider,
  MenuItem,
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { RetryAlert } from '../../../shared/components/retry-alert';
import { SectionCard } from '../../../shared/components/section-card';
import { useTRPC } from '../../../shared/trpc';
import type { AgentDetails, KyaVerification } from '../api/agent-types';
import { useRefreshAgent } from '../hooks/use-refresh-agent';
import {
  EMPTY_EVIDENCE,
  EVIDENCE_LABELS,
  escalationInput,
  escalationTargets,
  evidenceFields,
  sha256Hex,
  tierFacts,
  tierLabel,
  type EvidenceField,
  type EvidenceForm,
  type KyaEscalationTarget,
} from '../utils/kya';
import { formatDateTime, formatDollars } from '../utils/money';
import { errorMessage } from '../utils/trpc-errors';

export function AgentKyaCard({ agent }: { agent: AgentDetails }) {
  const facts = tierFacts(agent.kya_tier);
  return (
    <SectionCard title="Know Your Agent (KYA)">
      <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography variant="body2" color="text.secondary">
          Current tier
        </Typography>
        <Chip label={tierLabel(facts.tier)} color="primary" size="small" />
        <Chip label={`eIDAS level of assurance: ${facts.eidas}`} size="small" variant="outlined" />
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
        The tier caps every payment at {formatDollars(Number(facts.perTransaction))} and {formatDollars(Number(facts.perDay))} per rolling 24 hours, on top of
        the spending rules.
      </Typography>
      <Divider sx={{ my: 2.5 }} />
      <EscalationForm agent={agent} />
      <Divider sx={{ my: 2.5 }} />
      <VerificationHistory agentId={agent.id} />
    </SectionCard>
  );
}

function EscalationForm({ agent }: { agent: AgentDetails }) {
  const trpc = useTRPC();
  const refresh = useRefreshAgent(agent.id);
  const request = useMutation(trpc.agents.requestKyaEscalation.mutationOptions());
  const targets = escalationTargets(agent.kya_tier);
  const [tier, setTier] = useState<KyaEscalationTarget | ''>(targets[0] ?? '');
  const [evidence, setEvidence] = useState<EvidenceForm>(EMPTY_EVIDENCE);
  const [errors, setErrors] = useState<Partial<Record<EvidenceField | 'tier', string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<{ status: 'verified' | 'rejected'; text: string } | null>(null);
  const busy = request.isPending;

  if (targets.length === 0) {
    return <Typography color="text.secondary">The agent holds the highest tier.</Typography>;
  }
  const chosen = tier === '' || !targets.includes(tier) ? targets[0]! : tier;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    setOutcome(null);
    const checked = escalationInput(agent.id, chosen, evidence);
    if (!checked.ok) {
      setErrors(checked.errors);
      const first = evidenceFields(chosen).find((field) => checked.errors[field]);
      if (first) document.getElementById(`kya-${first}`)?.focus();
      return;
    }
    setErrors({});
    try {
      const result = await request.mutateAsync(checked.input);
      const { verification } = result;
      if (verification.status === 'verified') {
        setOutcome({ status: 'verified', text: `Verified: the agent now holds the ${verification.to_tier} tier.` });
        toast.success(`KYA tier raised to ${verification.to_tier}`);
        setEvidence(EMPTY_EVIDENCE);
      } else {
        setOutcome({ status: 'rejected', text: `Rejected: ${verification.reason ?? 'the evidence was not accepted'}` });
      }
      await refresh();
    } catch (error) {
      const message = errorMessage(error, 'Failed to request the escalation');
      const field = evidenceFields(chosen).find((name) => message.startsWith(`evidence.${name}`));
      if (field) setErrors({ [field]: message });
      else setFormError(message);
    }
  };

  return (
    <Box component="form" noValidate onSubmit={submit} aria-labelledby="kya-escalation-title">
      <Typography id="kya-escalation-title" variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
        Request a higher tier
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        Each tier asks for more evidence about who stands behind the agent. On this sandbox the evidence is checked for form only; no identity provider
        is asked.
      </Typography>
      {agent.status !== 'active' ? (
        <Alert severity="info" sx={{ mb: 2 }}>
          Reactivate the agent before raising its KYA tier.
        </Alert>
      ) : null}
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
        <TextField
          select
          id="kya-tier"
          label="Tier"
          value={chosen}
          disabled={busy}
          error={Boolean(errors.tier)}
          helperText={errors.tier ?? `eIDAS level: ${tierFacts(chosen).eidas}`}
          onChange={(event) => {
            setTier(event.target.value as KyaEscalationTarget);
            setErrors({});
          }}
        >
          {targets.map((target) => (
            <MenuItem key={target} value={target}>
              {tierLabel(target)}
            </MenuItem>
          ))}
        </TextField>
        {evidenceFields(chosen).map((field) =>
          field === 'document_sha256' ? (
            <DocumentHashField
              key={field}
              value={evidence[field]}
              error={errors[field]}
              disabled={busy}
              onChange={(value) => {
                setEvidence((current) => ({ ...current, [field]: value }));
                setErrors((current) => ({ ...current, [field]: undefined }));
              }}
            />
          ) : (
            <TextField
              key={field}
              id={`kya-${field}`}
              label={EVIDENCE_LABELS[field].label}
              value={evidence[field]}
              disabled={busy}
              error={Boolean(errors[field])}
              helperText={errors[field] ?? EVIDENCE_LABELS[field].help}
              type={field === 'contact_email' ? 'email' : 'text'}
              onChange={(event) => {
                const value = event.target.value;
                setEvidence((current) => ({ ...current, [field]: value }));
                if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
              }}
            />
          ),
        )}
      </Box>
      {formError ? (
        <Alert severity="error" sx={{ mt: 2 }}>
          {formError}
        </Alert>
      ) : null}
      <Box aria-live="polite">
        {outcome ? (
          <Alert severity={outcome.status === 'verified' ? 'success' : 'warning'} sx={{ mt: 2 }}>
            {outcome.text}
          </Alert>
        ) : null}
      </Box>
      <Box sx={{ mt: 2, display: 'flex', justifyContent: 'flex-end' }}>
        <Button type="submit" variant="contained" disabled={busy || agent.status !== 'active'}>
          {busy ? 'Requesting...' : 'Request escalation'}
        </Button>
      </Box>
    </Box>
  );
}

function DocumentHashField({ value, error, disabled, onChange }: { value: string; error?: string; disabled: boolean; onChange: (value: string) => void }) {
  const fileInput = useRef<HTMLInputElement>(null);
  const [hashing, setHashing] = useState(false);
  const label = EVIDENCE_LABELS.document_sha256;
  return (
    <Box sx={{ gridColumn: { sm: '1 / -1' } }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'flex-start' } }}>
        <TextField
          id="kya-document_sha256"
          label={label.label}
          value={value}
          disabled={disabled}
          error={Boolean(error)}
          helperText={error ?? label.help}
          onChange={(event) => onChange(event.target.value)}
          fullWidth
          slotProps={{ htmlInput: { spellCheck: false, autoComplete: 'off', style: { fontFamily: 'monospace' } } }}
        />
        <Button
          variant="outlined"
          startIcon={<UploadFileRounded />}
          disabled={disabled || hashing}
          onClick={() => fileInput.current?.click()}
          sx={{ flexShrink: 0, mt: { sm: 1 } }}
        >
          {hashing ? 'Hashing...' : 'Hash a file'}
        </Button>
      </Stack>
      <input
        ref={fileInput}
        type="file"
        hidden
        aria-label="Document to hash"
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (!file) return;
          setHashing(true);
          file
            .arrayBuffer()
            .then(sha256Hex)
            .then(onChange, () => toast.error('Unable to read the file'))
            .finally(() => setHashing(false));
        }}
      />
    </Box>
  );
}

function VerificationHistory({ agentId }: { agentId: string }) {
  const trpc = useTRPC();
  const history = useQuery(trpc.agents.kyaVerifications.queryOptions({ agent_id: agentId }));
  return (
    <Box>
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, mb: 1 }}>
        Verification history
      </Typography>
      {history.isPending ? (
        <Skeleton variant="rounded" height={96} role="status" aria-label="Loading verification history" />
      ) : history.isError ? (
        <RetryAlert onRetry={() => void history.refetch()}>
          {errorMessage(history.error, 'Unable to load the verification history.')}
        </RetryAlert>
      ) : history.data.length === 0 ? (
        <Typography color="text.secondary">No KYA verifications yet.</Typography>
      ) : (
        <VerificationTable rows={history.data} />
      )}
    </Box>
  );
}

function VerificationTable({ rows }: { rows: KyaVerification[] }) {
  return (
    // Scrolls inside itself on a narrow phone, never the page; focusable so keys can scroll it.
    <TableContainer tabIndex={0} role="region" aria-label="KYA verification history" sx={{ overflowX: 'auto' }}>
      <Table size="small">
        <TableHead>
          <TableRow>
            <TableCell>Date</TableCell>
            <TableCell>Tier</TableCell>
            <TableCell>Outcome</TableCell>
            <TableCell>Reason</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={row.id}>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(row.created_at)}</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>
                {tierLabel(row.from_tier)} → {tierLabel(row.to_tier)}
              </TableCell>
              <TableCell>
                <Chip size="small" label={row.status === 'verified' ? 'Verified' : 'Rejected'} color={row.status === 'verified' ? 'success' : 'default'} variant="outlined" />
                <Typography variant="caption" color="text.secondary" component="p">
                  {row.method}
                </Typography>
              </TableCell>
              <TableCell sx={{ minWidth: 160 }}>{row.reason ?? '—'}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
