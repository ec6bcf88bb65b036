// What the payment page shows of a paid call made over MPP (the Machine Payments Protocol), in
// the execute step beside the rail, laid out like an x402 payment's authorisation: the seller's
// challenge (`WWW-Authenticate: Payment`), the credential sent in answer, decoded (`Authorization:
// Payment`, an EIP-3009 authorisation; never its signature), and the seller's `Payment-Receipt`
// with whether the chain confirms the transaction it names.
import { Box, Chip, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import type { PaymentDetail } from '../hooks/use-payment-detail';
import { formatDateTime, fullPrecision, shortHex } from '../utils/flow-format';
import { FieldList, Mono } from './flow-fields';

type MppPayment = NonNullable<NonNullable<PaymentDetail['rail']>['mpp']>;

export function MppPaymentContent({ mpp, currency }: { mpp: MppPayment; currency: string }) {
  const { challenge, credential, receipt } = mpp;
  return (
    <>
      <Part title="MPP challenge" testId="mpp-challenge">
        {challenge ? (
          <FieldList
            dense
            rows={[
              { label: 'Realm', value: challenge.realm },
              { label: 'Method', value: `${challenge.method} · ${challenge.intent}` },
              { label: 'Amount', value: <Mono>{`${fullPrecision(challenge.request.amount)} ${currency}`}</Mono> },
              { label: 'Recipient', value: <Mono>{challenge.request.recipient}</Mono> },
              { label: 'Token', value: <Mono>{challenge.request.currency}</Mono> },
              { label: 'Chain id', value: String(challenge.request.chainId) },
              ...(challenge.request.description ? [{ label: 'Description', value: challenge.request.description }] : []),
              { label: 'Expires', value: challenge.expires ? formatDateTime(challenge.expires) : 'Never' },
              { label: 'Challenge id', value: <Mono>{challenge.id}</Mono> },
            ]}
          />
        ) : (
          <Empty>The seller’s challenge could not be read from this payment.</Empty>
        )}
      </Part>
      <Part title="MPP credential, decoded" testId="mpp-credential">
        {credential ? (
          <FieldList
            dense
            rows={[
              {
                label: 'Answers',
                value:
                  credential.challengeId === challenge?.id ? (
                    'The challenge above'
                  ) : (
                    // Not the challenge kept with the payment: said, with the id it names.
                    <Box component="span" sx={{ display: 'inline-flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
                      <Chip size="small" color="warning" label="Another challenge" />
                      <Mono>{credential.challengeId}</Mono>
                    </Box>
                  ),
              },
              { label: 'Payer (from)', value: <Mono>{credential.from}</Mono> },
              { label: 'Payee (to)', value: <Mono>{credential.to}</Mono> },
              { label: 'Value', value: <Mono>{`${fullPrecision(credential.value)} ${currency}`}</Mono> },
              // MPP's EVM charge signs validAfter 0: valid from its signing.
              { label: 'Valid from', value: Date.parse(credential.validAfter) === 0 ? 'When signed' : formatDateTime(credential.validAfter) },
              { label: 'Valid until', value: formatDateTime(credential.validBefore) },
              { label: 'Nonce', value: <Mono>{shortHex(credential.nonce, 10, 8)}</Mono> },
            ]}
          />
        ) : (
          <Empty>No credential has been sent for this payment.</Empty>
        )}
      </Part>
      <Part title="Seller’s Payment-Receipt" testId="mpp-receipt">
        {receipt ? (
          <FieldList
            dense
            rows={[
              {
                label: 'On chain',
                value: (
                  <Chip size="small" color={receipt.confirmed ? 'success' : 'warning'} label={receipt.confirmed ? 'Confirmed on chain' : 'Not confirmed'} data-testid="mpp-receipt-confirmed" />
                ),
              },
              { label: 'Status', value: receipt.status },
              { label: 'Method', value: receipt.method },
              { label: 'Transaction', value: <Mono>{receipt.reference}</Mono> },
              { label: 'Issued', value: formatDateTime(receipt.timestamp) || receipt.timestamp },
            ]}
          />
        ) : (
          <Empty>The seller has sent no Payment-Receipt for this payment.</Empty>
        )}
      </Part>
    </>
  );
}

function Part({ title, testId, children }: { title: string; testId: string; children: ReactNode }) {
  return (
    <Box data-testid={testId} sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
      <Typography variant="subtitle2" component="h3">
        {title}
      </Typography>
      {children}
    </Box>
  );
}

function Empty({ children }: { children: string }) {
  return (
    <Typography variant="body2" color="text.secondary">
      {children}
    </Typography>
  );
}
