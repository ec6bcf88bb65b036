// What the owner can do with this payment, where its state allows it: approve or reject it
// (with an optional note) while it waits for them, cancel it before any money is held (as the
// server's cancel-intent allows: created, pending approval, or approved and not yet reserved),
// and open its workflow in the Temporal UI.
import CheckRounded from '@mui/icons-material/CheckRounded';
import CloseRounded from '@mui/icons-material/CloseRounded';
import DoNotDisturbRounded from '@mui/icons-material/DoNotDisturbRounded';
import OpenInNewRounded from '@mui/icons-material/OpenInNewRounded';
import { Box, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, Stack } from '@mui/material';
import { useId, useState } from 'react';
import { visuallyHidden } from '../../../shared/a11y/visually-hidden';
import { usePaymentActions } from '../hooks/use-payment-actions';
import type { PaymentDetail } from '../hooks/use-payment-detail';
import { fullPrecision } from '../utils/flow-format';
import { shortAddress } from '../utils/format';
import { RejectPaymentDialog } from './reject-payment-dialog';

const CANCELLABLE = new Set(['created', 'pending_approval', 'approved']);

export function canDecide(intent: PaymentDetail['intent']): boolean {
  return intent.status === 'pending_approval';
}

export function canCancel(intent: PaymentDetail['intent']): boolean {
  return CANCELLABLE.has(intent.status) && intent.reservedAt === null;
}

/** '7.25 USDC to api.weather.test by Research bot'; an address is shortened ('0x7099…79C8'). */
function paymentSummary(detail: PaymentDetail): string {
  const { intent, agent } = detail;
  const payee = intent.merchant ?? (intent.toAddress && shortAddress(intent.toAddress));
  return `${fullPrecision(intent.amountExact)} ${intent.currency}${payee ? ` to ${payee}` : ''} by ${agent.name}`;
}

export function FlowActions({ detail }: { detail: PaymentDetail }) {
  const { intent, workflow } = detail;
  const actions = usePaymentActions(intent.id);
  const [rejecting, setRejecting] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  const cancelTitleId = useId();
  const decide = canDecide(intent);
  const cancel = canCancel(intent);

  if (!decide && !cancel && !workflow.temporalUiUrl) return null;
  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }} aria-label="Payment actions" role="group">
      {decide && (
        <>
          <Button variant="contained" color="success" startIcon={<CheckRounded />} disabled={actions.busy} onClick={() => void actions.approve()}>
            Approve
          </Button>
          <Button variant="outlined" color="error" startIcon={<CloseRounded />} disabled={actions.busy} onClick={() => setRejecting(true)}>
            Reject
          </Button>
        </>
      )}
      {cancel && (
        <Button variant="outlined" color="inherit" startIcon={<DoNotDisturbRounded />} disabled={actions.busy} onClick={() => setCancelling(true)}>
          Cancel payment
        </Button>
      )}
      {workflow.temporalUiUrl && (
        <Button variant="text" href={workflow.temporalUiUrl} target="_blank" rel="noopener noreferrer" endIcon={<OpenInNewRounded />}>
          Open in Temporal UI
          <Box component="span" sx={visuallyHidden}>
            (opens in a new tab)
          </Box>
        </Button>
      )}

      <RejectPaymentDialog
        open={rejecting}
        summary={`Reject ${paymentSummary(detail)}`}
        busy={actions.busy}
        onClose={() => setRejecting(false)}
        onReject={actions.reject}
      />
      <Dialog open={cancelling} onClose={actions.busy ? undefined : () => setCancelling(false)} aria-labelledby={cancelTitleId} fullWidth maxWidth="xs">
        <DialogTitle id={cancelTitleId}>Cancel this payment?</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ overflowWrap: 'anywhere' }}>
            {paymentSummary(detail)} will not be made. Nothing has been held yet, so no money moves. This cannot be undone.
          </DialogContentText>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button color="inherit" disabled={actions.busy} onClick={() => setCancelling(false)}>
            Keep payment
          </Button>
          <Button
            variant="contained"
            color="error"
            disabled={actions.busy}
            onClick={() =>
              void actions.cancel().then((done) => {
                if (done) setCancelling(false);
              })
            }
          >
            {actions.busy ? 'Cancelling...' : 'Cancel payment'}
          </Button>
        </DialogActions>
      </Dialog>
    </Stack>
  );
}
