// The approval page's form: what the agent asked for (its reason, the total, the cap per payment,
// the expiry and the scope), and the owner's answer: grant it, for less or until sooner if they
// like, for all the agent's payments or set aside if they choose, or reject it with a note the
// agent reads. A request that reaches its own end while the page is open is closed by then (it
// expired undecided): nothing is left to decide.
import { Alert, Box, Button, InputAdornment, Stack, TextField, Typography } from '@mui/material';
import { PAYMENT_SESSION_REASON_MAX_LENGTH, type PaymentSessionApprovalLinkView } from '@purser/core';
import { useState, type FormEvent, type ReactNode } from 'react';
import { SessionOptionsFields } from '../../../shared/payment-sessions/session-options-fields';
import { approvalInput, initialApprovalForm, rejectionInput, toLocalInput, type ApprovalField, type ApprovalForm, type ApprovalInput } from '../utils/approval-form';
import { formatUsd, formatWhen, scopeLines } from '../utils/format';

export interface BudgetApprovalFormProps {
  token: string;
  link: PaymentSessionApprovalLinkView;
  /** Which decision is on its way to the server (the buttons lock), or none. */
  busy: 'approve' | 'reject' | null;
  /** The server's refusal of the last decision, shown above the buttons. */
  error: string | null;
  onDecide: (input: ApprovalInput) => void;
  /** The clock for the expiry check (tests fix it). */
  now?: () => Date;
}

const FIELD_ORDER: ApprovalField[] = ['total', 'expiresAt', 'note'];

export function BudgetApprovalForm({ token, link, busy, error, onDecide, now = () => new Date() }: BudgetApprovalFormProps) {
  const { session, agentName } = link;
  const [form, setForm] = useState<ApprovalForm>(() => initialApprovalForm(session));
  const [errors, setErrors] = useState<Partial<Record<ApprovalField, string>>>({});
  const locked = busy !== null;
  // A request whose own expiry passed while it waited has closed: neither decision is possible.
  const lapsed = new Date(session.expiresAt).getTime() <= now().getTime();
  const scope = scopeLines(session.scope);

  const change = (field: ApprovalField, value: string) => {
    setForm((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const decide = (approve: boolean) => {
    if (locked || lapsed) return;
    const result = approve ? approvalInput(token, session, form, now()) : rejectionInput(token, session, form);
    if (!result.ok) {
      setErrors(result.errors);
      const first = FIELD_ORDER.find((field) => result.errors[field]);
      if (first && typeof document !== 'undefined') document.getElementById(`approval-${first}`)?.focus();
      return;
    }
    onDecide(result.input);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    decide(true);
  };

  return (
    <Box component="form" noValidate onSubmit={submit} aria-labelledby="approval-title">
      <Stack spacing={3}>
        <Box>
          <Typography id="approval-title" variant="h5" component="h1" sx={{ fontWeight: 700, textWrap: 'balance', overflowWrap: 'anywhere' }}>
            {agentName} asks for a budget
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
            If you approve, it may pay up to the total below until the budget ends. Its own spending rules and your policies still apply.
          </Typography>
        </Box>

        <Box component="section" aria-labelledby="approval-request-heading" sx={{ p: 2, borderRadius: 2, border: 1, borderColor: 'divider', bgcolor: 'action.hover' }}>
          <Typography id="approval-request-heading" variant="overline" component="h2" color="text.secondary" sx={{ lineHeight: 1.5 }}>
            What it asks for
          </Typography>
          {session.reason ? (
            <Typography component="blockquote" sx={{ m: 0, mb: 1.5, fontSize: '1.05rem', overflowWrap: 'anywhere' }}>
              “{session.reason}”
            </Typography>
          ) : null}
          <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'auto 1fr' }, columnGap: 2, rowGap: { xs: 0.25, sm: 0.75 } }}>
            <Term>Total</Term>
            <Detail testId="approval-asked-total" strong>
              {formatUsd(session.totalExact)}
            </Detail>
            <Term>Per payment</Term>
            <Detail>{session.perPaymentMaxExact === null ? 'No cap of its own' : `At most ${formatUsd(session.perPaymentMaxExact)}`}</Detail>
            <Term>Ends</Term>
            <Detail>{formatWhen(session.expiresAt)}</Detail>
            <Term>May pay for</Term>
            <Detail>
              {scope.length === 0
                ? 'Anything its rules allow'
                : scope.map((line) => (
                    <Box component="span" key={line} sx={{ display: 'block' }}>
                      {line}
                    </Box>
                  ))}
            </Detail>
            <Term>Asked</Term>
            <Detail>{formatWhen(session.createdAt)}</Detail>
          </Box>
        </Box>

        {lapsed ? (
          <Alert severity="warning" role="status">
            This request reached its own end before anyone decided, so it has closed: nothing was granted and there is nothing left to decide. The agent can ask again.
          </Alert>
        ) : null}

        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <TextField
            id="approval-total"
            label="Total to grant"
            value={form.total}
            onChange={(event) => change('total', event.target.value)}
            disabled={locked || lapsed}
            error={Boolean(errors.total)}
            helperText={errors.total ?? `At most the ${formatUsd(session.totalExact)} asked. Lower it to grant less.`}
            fullWidth
            slotProps={{
              htmlInput: { inputMode: 'decimal', autoComplete: 'off' },
              input: { startAdornment: <InputAdornment position="start">$</InputAdornment> },
            }}
          />
          <TextField
            id="approval-expiresAt"
            label="Budget ends"
            type="datetime-local"
            value={form.expiresAt}
            onChange={(event) => change('expiresAt', event.target.value)}
            disabled={locked || lapsed}
            error={Boolean(errors.expiresAt)}
            helperText={errors.expiresAt ?? 'As asked, or sooner.'}
            fullWidth
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: toLocalInput(session.expiresAt) } }}
          />
        </Stack>

        <TextField
          id="approval-note"
          label="Note to the agent"
          value={form.note}
          onChange={(event) => change('note', event.target.value)}
          disabled={locked || lapsed}
          error={Boolean(errors.note)}
          helperText={errors.note ?? 'Optional when you approve; say why when you reject.'}
          multiline
          minRows={2}
          fullWidth
          slotProps={{ htmlInput: { maxLength: PAYMENT_SESSION_REASON_MAX_LENGTH } }}
        />

        <SessionOptionsFields value={form} disabled={locked || lapsed} onChange={(options) => setForm((current) => ({ ...current, ...options }))} />

        {error ? (
          <Alert severity="error" role="alert">
            {error}
          </Alert>
        ) : null}

        <Stack direction={{ xs: 'column-reverse', sm: 'row' }} spacing={1.5} sx={{ justifyContent: 'flex-end' }}>
          <Button type="button" variant="outlined" color="error" onClick={() => decide(false)} disabled={locked || lapsed} size="large">
            {busy === 'reject' ? 'Rejecting...' : 'Reject'}
          </Button>
          <Button type="submit" variant="contained" disabled={locked || lapsed} size="large">
            {busy === 'approve' ? 'Approving...' : 'Approve'}
          </Button>
        </Stack>
        <Typography variant="body2" color="text.secondary">
          This link works once, until {formatWhen(link.linkExpiresAt)}.
        </Typography>
      </Stack>
    </Box>
  );
}

function Term({ children }: { children: string }) {
  return (
    <Typography component="dt" variant="body2" color="text.secondary">
      {children}
    </Typography>
  );
}

function Detail({ children, strong = false, testId }: { children: ReactNode; strong?: boolean; testId?: string }) {
  return (
    <Typography component="dd" variant="body2" data-testid={testId} sx={{ m: 0, mb: { xs: 1, sm: 0 }, fontWeight: strong ? 700 : undefined, overflowWrap: 'anywhere' }}>
      {children}
    </Typography>
  );
}
