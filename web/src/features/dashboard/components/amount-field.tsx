// A dollar amount input: step 0.01, min 0 (spec sections 5 and 9). The dialogs check the
// value themselves and say what is wrong in a toast, so the browser's own checks are off.
import { TextField } from '@mui/material';

export function AmountField({
  id,
  label = 'Amount',
  value,
  onChange,
  disabled,
  autoFocus,
}: {
  id: string;
  label?: string;
  value: string;
  onChange: (value: string) => void;
  disabled?: boolean;
  autoFocus?: boolean;
}) {
  return (
    <TextField
      fullWidth
      id={id}
      label={label}
      type="number"
      value={value}
      disabled={disabled}
      autoFocus={autoFocus}
      onChange={(event) => onChange(event.target.value)}
      slotProps={{ htmlInput: { min: 0, step: 0.01, inputMode: 'decimal' } }}
    />
  );
}
