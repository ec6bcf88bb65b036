// The USDC / USDT choice of the top-up and fund dialogs (spec section 5: those two only).
import { MenuItem, TextField } from '@mui/material';

export const CURRENCIES = ['USDC', 'USDT'] as const;
export type Currency = (typeof CURRENCIES)[number];

export function CurrencyField({ id, value, onChange, disabled }: { id: string; value: Currency; onChange: (value: Currency) => void; disabled?: boolean }) {
  return (
    <TextField
      select
      fullWidth
      id={id}
      label="Currency"
      value={value}
      disabled={disabled}
      onChange={(event) => onChange(event.target.value as Currency)}
    >
      {CURRENCIES.map((currency) => (
        <MenuItem key={currency} value={currency}>
          {currency}
        </MenuItem>
      ))}
    </TextField>
  );
}
