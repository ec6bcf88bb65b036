// 'Top Up Wallet': adds sandbox funds to the owner's wallet (amount, currency USDC by default).
// Each request carries an idempotency key, so a retry after a lost response credits once.
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { useTRPC } from '../../../shared/trpc';
import { useReloadDashboard } from '../hooks/use-dashboard-data';
import { useIdempotencyKeys } from '../hooks/use-idempotency-keys';
import { errorMessage, positiveAmount } from '../utils/messages';
import { AmountField } from './amount-field';
import { FormDialog } from '../../../shared/components/form-dialog';
import { CurrencyField, type Currency } from './currency-field';

export function TopUpDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const trpc = useTRPC();
  const reload = useReloadDashboard();
  const topUp = useMutation(trpc.wallet.topUp.mutationOptions());
  const [amount, setAmount] = useState('');
  const [currency, setCurrency] = useState<Currency>('USDC');
  const keys = useIdempotencyKeys(open);
  const busy = topUp.isPending;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const value = positiveAmount(amount);
    if (value === null) {
      toast.error('Please enter a valid amount');
      return;
    }
    const request = { amount: value, currency };
    try {
      await topUp.mutateAsync({ ...request, idempotency_key: keys.keyFor(request) });
      keys.succeeded();
      toast.success(`Successfully added ${value} ${currency} to your wallet`);
      onClose();
      setAmount('');
      setCurrency('USDC');
      void reload();
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to top up wallet'));
    }
  };

  return (
    <FormDialog id="top-up" title="Top Up Wallet" open={open} busy={busy} submitLabel="Top Up" busyLabel="Processing..." onClose={onClose} onSubmit={submit}>
      <AmountField id="top-up-amount" value={amount} onChange={setAmount} disabled={busy} autoFocus />
      <CurrencyField id="top-up-currency" value={currency} onChange={setCurrency} disabled={busy} />
    </FormDialog>
  );
}
