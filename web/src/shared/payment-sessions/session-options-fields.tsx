// The two choices an owner makes when opening or granting a payment session: charge all the
// agent's payments to it, and set its total aside (docs/payments.md). The open and grant dialogs
// and the approval link's page show them.
import { Checkbox, FormControlLabel, FormGroup } from '@mui/material';

export interface SessionOptions {
  allPayments: boolean;
  reserve: boolean;
}

export function SessionOptionsFields({ value, onChange, disabled = false }: { value: SessionOptions; onChange: (change: Partial<SessionOptions>) => void; disabled?: boolean }) {
  return (
    // A label that wraps (at phone widths) keeps its box beside its first line, a gap from the next.
    <FormGroup sx={{ gap: 1, '& .MuiFormControlLabel-root': { alignItems: 'flex-start' }, '& .MuiCheckbox-root': { mt: -0.75 } }}>
      <FormControlLabel
        disabled={disabled}
        control={<Checkbox checked={value.allPayments} onChange={(event) => onChange({ allPayments: event.target.checked })} />}
        label="Charge all the agent's payments to it, not only those that name it"
      />
      <FormControlLabel
        disabled={disabled}
        control={<Checkbox checked={value.reserve} onChange={(event) => onChange({ reserve: event.target.checked })} />}
        label="Set the total aside now (a hold on the agent's balance until the session closes)"
      />
    </FormGroup>
  );
}
