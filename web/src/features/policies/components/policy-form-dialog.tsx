// Creating or editing a policy, with every rule the engine has (core/src/policy/policy-rules.ts):
// amounts, categories, merchants, countries, time windows, approvals and KYA, and the protocol a
// paid call prefers. Its scope (every agent or one) and shadow mode too. An edit keeps the name and scope; new rules or a new shadow
// setting are saved by the server as the policy's next version.
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Divider,
  FormControlLabel,
  InputAdornment,
  MenuItem,
  Stack,
  Switch,
  TextField,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useRef, useState, type ChangeEvent, type FormEvent, type ReactNode } from 'react';
import { toast } from 'sonner';
import { useTRPC } from '../../../shared/trpc';
import type { Policy, PolicyAgent } from '../api/policy-types';
import { useRefreshPolicies } from '../hooks/use-refresh-policies';
import { errorMessage } from '../utils/display';
import {
  checkPolicyForm,
  createPolicyBody,
  emptyPolicyForm,
  errorKeyOfMessage,
  KYA_ESCALATION_TIERS,
  PAYMENT_PROTOCOLS,
  policyForm,
  type AmountRule,
  type KyaEscalationChoice,
  type ListRule,
  type PolicyForm,
  type PolicyFormErrorKey,
  type PolicyFormErrors,
  type PreferredProtocolChoice,
} from '../utils/policy-form';
import { TimeWindowsField } from './time-windows-field';

/** The form's fields that hold text, each under its own id and message. */
type TextFieldKey = 'name' | 'agentId' | 'timeBox' | AmountRule | ListRule;

const AMOUNT_FIELDS: { rule: AmountRule; label: string; help: string }[] = [
  { rule: 'maxPerTransaction', label: 'Max per payment', help: 'A single payment above this is refused.' },
  { rule: 'dailyLimit', label: 'Rolling 24-hour limit', help: 'Payments in any 24 hours add up to at most this.' },
  { rule: 'monthlyBudget', label: 'Monthly budget', help: 'Per calendar month (UTC); notices at 80% and 100%.' },
  { rule: 'approvalThreshold', label: 'Approval above', help: 'Payments above this wait for your approval.' },
];

const LIST_FIELDS: Record<ListRule, { label: string; help: string; placeholder: string; lines: number }> = {
  allowedCategories: {
    label: 'Allowed categories',
    help: 'Only payments in these categories pass; one without a category is refused. Separate with commas.',
    placeholder: 'data_api, compute',
    lines: 1,
  },
  blockedCategories: { label: 'Blocked categories', help: 'Payments in these categories are refused.', placeholder: 'gambling', lines: 1 },
  allowedMerchants: {
    label: 'Allowed merchants',
    help: "One a line: a payee address (0x and 40 hex digits) or a merchant host. An x402 seller's host counts only when Purser fetched the URL; allow its address instead.",
    placeholder: 'api.example.com\n0x…',
    lines: 2,
  },
  blockedMerchants: { label: 'Blocked merchants', help: 'One a line: payee addresses or merchant hosts to refuse.', placeholder: 'bad.example', lines: 2 },
  allowedCountries: {
    label: 'Allowed countries',
    help: 'ISO 3166-1 alpha-2 codes; a payment without a country is refused.',
    placeholder: 'US, DE',
    lines: 1,
  },
  blockedCountries: { label: 'Blocked countries', help: 'ISO 3166-1 alpha-2 codes to refuse.', placeholder: 'KP', lines: 1 },
};

/** Each list rule's section: what passes beside what is refused. */
const LIST_SECTIONS: { title: string; rules: [ListRule, ListRule] }[] = [
  { title: 'Categories', rules: ['allowedCategories', 'blockedCategories'] },
  { title: 'Merchants', rules: ['allowedMerchants', 'blockedMerchants'] },
  { title: 'Countries', rules: ['allowedCountries', 'blockedCountries'] },
];

const KYA_OPTIONS: { value: KyaEscalationChoice; label: string }[] = [
  { value: '', label: 'None: payments beyond the KYA tier are refused' },
  ...KYA_ESCALATION_TIERS.map((tier) => ({ value: tier, label: `Up to ${tier}: your approval may stand in for the ${tier} tier` })),
];

const PROTOCOL_NAMES: Record<Exclude<PreferredProtocolChoice, ''>, string> = { x402: 'x402', mpp: 'MPP' };

const PROTOCOL_OPTIONS: { value: PreferredProtocolChoice; label: string }[] = [
  { value: '', label: 'No preference (cheaper, then x402)' },
  ...PAYMENT_PROTOCOLS.map((protocol) => ({ value: protocol, label: PROTOCOL_NAMES[protocol] })),
];

export type PolicyDialogState = { mode: 'create' } | { mode: 'edit'; policy: Policy };

export interface PolicyFormDialogProps {
  state: PolicyDialogState;
  agents: PolicyAgent[];
  onClose: () => void;
}

/** Mounted afresh for each opening (the page keys it), so it always starts from its policy. */
export function PolicyFormDialog({ state, agents, onClose }: PolicyFormDialogProps) {
  const trpc = useTRPC();
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const refresh = useRefreshPolicies();
  const create = useMutation(trpc.policies.create.mutationOptions());
  const update = useMutation(trpc.policies.update.mutationOptions());
  const editing = state.mode === 'edit' ? state.policy : null;
  const [form, setForm] = useState<PolicyForm>(() => (editing ? policyForm(editing) : emptyPolicyForm()));
  const [errors, setErrors] = useState<PolicyFormErrors>({});
  const formAlert = useRef<HTMLDivElement>(null);
  const busy = create.isPending || update.isPending;
  const agentName = (id: string | null) => (id ? (agents.find((agent) => agent.id === id)?.name ?? 'One agent') : 'All agents');

  const set = <K extends keyof PolicyForm>(key: K, value: PolicyForm[K], errorKey: PolicyFormErrorKey = key as PolicyFormErrorKey) => {
    setForm((current) => ({ ...current, [key]: value }));
    if (errors[errorKey] || errors.form) setErrors((current) => ({ ...current, [errorKey]: undefined, form: undefined }));
  };

  const showErrors = (found: PolicyFormErrors) => {
    setErrors(found);
    // Focus the first field in the form's order that has a message; a form-wide one is read out.
    requestAnimationFrame(() => {
      const fields = Array.from(document.querySelectorAll<HTMLElement>('#policy-form [aria-invalid="true"]'));
      if (found.form) formAlert.current?.scrollIntoView({ block: 'nearest' });
      else fields[0]?.focus();
    });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = checkPolicyForm(form, editing ? 'edit' : 'create');
    if (!checked.ok) {
      showErrors(checked.errors);
      return;
    }
    setErrors({});
    try {
      if (editing) {
        const saved = await update.mutateAsync({ policyId: editing.id, rules: checked.rules, shadow: form.shadow, enabled: form.enabled });
        toast.success(saved.version > editing.version ? `Policy "${saved.name}" saved as version ${saved.version}` : `Policy "${saved.name}" saved`);
      } else {
        const saved = await create.mutateAsync(createPolicyBody(form, checked.rules));
        toast.success(`Policy "${saved.name}" created`);
      }
      onClose();
      await refresh();
    } catch (error) {
      const message = errorMessage(error, editing ? 'Failed to save the policy' : 'Failed to create the policy');
      showErrors({ [errorKeyOfMessage(message)]: message });
    }
  };

  /** What every text field shares: `policy-<key>` as its id, its value, its message (else its help) and its change. */
  const textField = (key: TextFieldKey, help: string) => ({
    id: `policy-${key}`,
    value: form[key],
    disabled: busy,
    error: Boolean(errors[key]),
    helperText: errors[key] ?? help,
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => set(key, event.target.value),
    fullWidth: true,
  });

  const amountField = ({ rule, label, help }: (typeof AMOUNT_FIELDS)[number]) => (
    <TextField
      key={rule}
      {...textField(rule, help)}
      label={label}
      slotProps={{
        input: { startAdornment: <InputAdornment position="start">$</InputAdornment> },
        htmlInput: { inputMode: 'decimal', autoComplete: 'off' },
      }}
    />
  );

  const listField = (rule: ListRule) => {
    const { label, help, placeholder, lines } = LIST_FIELDS[rule];
    return (
      <TextField
        key={rule}
        {...textField(rule, help)}
        label={label}
        placeholder={placeholder}
        multiline
        minRows={lines}
        slotProps={{ htmlInput: { spellCheck: false, autoComplete: 'off' } }}
      />
    );
  };

  return (
    <Dialog open onClose={busy ? undefined : onClose} fullWidth maxWidth="md" fullScreen={fullScreen} aria-labelledby="policy-form-title">
      <Box component="form" id="policy-form" noValidate onSubmit={submit} sx={{ display: 'flex', flexDirection: 'column', minHeight: 0, flex: 1 }}>
        <DialogTitle id="policy-form-title">{editing ? `Edit policy ${editing.name}` : 'Create policy'}</DialogTitle>
        <DialogContent dividers>
          <Stack spacing={3}>
            <Box ref={formAlert} aria-live="polite">
              {errors.form ? <Alert severity="error">{errors.form}</Alert> : null}
            </Box>

            <FormSection title="Policy">
              {editing ? (
                <Box>
                  <Typography>
                    <strong>{editing.name}</strong> · {agentName(editing.agentId)} · version {editing.version}
                  </Typography>
                  <Typography variant="body2" color="text.secondary">
                    A policy keeps its name and scope. Saving new rules or switching shadow mode creates version {editing.version + 1}; the versions before
                    stay on record.
                  </Typography>
                </Box>
              ) : (
                <TwoColumns>
                  <TextField {...textField('name', 'Changes are kept as versions of this name.')} label="Name" autoFocus />
                  <TextField select {...textField('agentId', 'Every agent of yours, or one.')} label="Applies to">
                    <MenuItem value="">All agents</MenuItem>
                    {agents.map((agent) => (
                      <MenuItem key={agent.id} value={agent.id}>
                        {agent.name}
                      </MenuItem>
                    ))}
                  </TextField>
                </TwoColumns>
              )}
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 1, sm: 4 }}>
                <FormControlLabel
                  control={<Switch checked={form.shadow} onChange={(event) => set('shadow', event.target.checked)} disabled={busy} />}
                  label="Shadow mode: evaluate and report, never enforce"
                />
                <FormControlLabel
                  control={<Switch checked={form.enabled} onChange={(event) => set('enabled', event.target.checked)} disabled={busy} />}
                  label="Enabled"
                />
              </Stack>
            </FormSection>

            <FormSection title="Amounts" note="Dollars, up to 6 decimals; 0 is allowed (a limit of 0 stops spending). Leave a field empty for no such rule.">
              <TwoColumns>{AMOUNT_FIELDS.map(amountField)}</TwoColumns>
            </FormSection>

            {LIST_SECTIONS.map(({ title, rules }) => (
              <FormSection key={title} title={title}>
                <TwoColumns>{rules.map(listField)}</TwoColumns>
              </FormSection>
            ))}

            <FormSection title="Time windows">
              <TimeWindowsField windows={form.timeWindows} errors={errors} disabled={busy} onChange={(windows) => set('timeWindows', windows)} />
            </FormSection>

            <FormSection title="Approvals and KYA">
              <TwoColumns>
                <TextField
                  select
                  id="policy-kyaEscalation"
                  label="KYA escalation"
                  value={form.kyaEscalation}
                  disabled={busy}
                  error={Boolean(errors.kyaEscalation)}
                  helperText={
                    errors.kyaEscalation ??
                    "A payment beyond the agent's KYA tier caps waits for your approval instead of being refused, up to this tier's caps."
                  }
                  onChange={(event) => set('kyaEscalation', event.target.value as KyaEscalationChoice)}
                  fullWidth
                >
                  {KYA_OPTIONS.map((option) => (
                    <MenuItem key={option.value} value={option.value}>
                      {option.label}
                    </MenuItem>
                  ))}
                </TextField>
                <TextField
                  {...textField('timeBox', 'How long a payment waits for your approval before it expires: 30m, 24h, 7d or 2w (1 minute to 30 days).')}
                  label="Approval time box"
                  placeholder="24h"
                  slotProps={{ htmlInput: { autoComplete: 'off' } }}
                />
              </TwoColumns>
            </FormSection>

            <FormSection title="Paid calls">
              <TwoColumns>
                <TextField
                  select
                  id="policy-preferredProtocol"
                  label="Preferred protocol"
                  value={form.preferredProtocol}
                  disabled={busy}
                  error={Boolean(errors.preferredProtocol)}
                  helperText={
                    errors.preferredProtocol ??
                    "When a seller offers both x402 and MPP, the agent pays in this protocol, even if the other is cheaper, within the call's max_amount. An agent's policy wins over an owner-wide one; a shadow policy chooses nothing."
                  }
                  onChange={(event) => set('preferredProtocol', event.target.value as PreferredProtocolChoice)}
                  // No preference is a choice of its own: shown, not an empty field.
                  slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}
                  fullWidth
                >
                  {PROTOCOL_OPTIONS.map((option) => (
                    <MenuItem key={option.value} value={option.value}>
                      {option.label}
                    </MenuItem>
                  ))}
                </TextField>
              </TwoColumns>
            </FormSection>
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, py: 2 }}>
          <Button onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={busy}>
            {busy ? 'Saving...' : editing ? 'Save policy' : 'Create policy'}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}

function FormSection({ title, note, children }: { title: string; note?: string; children: ReactNode }) {
  return (
    <Box component="section" aria-label={title}>
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
        {title}
      </Typography>
      {note ? (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
          {note}
        </Typography>
      ) : null}
      <Divider sx={{ mb: 2, mt: note ? 0 : 1 }} />
      <Stack spacing={2}>{children}</Stack>
    </Box>
  );
}

/** Fields two to a row; one to a row on phones. */
function TwoColumns({ children }: { children: ReactNode }) {
  return <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>{children}</Box>;
}
