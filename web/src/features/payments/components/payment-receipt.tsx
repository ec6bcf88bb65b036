// The receipt of a settled payment: the JWS Purser signed over its settled facts, to copy and
// hand to anyone who needs proof of the payment, and where its verifier finds the issuer's keys.
import ContentCopyRounded from '@mui/icons-material/ContentCopyRounded';
import { Box, Button, Card, CardContent, Skeleton, Stack, Typography } from '@mui/material';
import { PAYMENT_RECEIPT_TYP } from '@purser/core';
import { toast } from 'sonner';
import { copyToClipboard } from '../../../shared/clipboard/copy-to-clipboard';
import { RetryAlert } from '../../../shared/components/retry-alert';
import { usePaymentReceipt } from '../hooks/use-payment-receipt';
import { errorMessage } from '../utils/flow-errors';
import { ExternalLink, Mono } from './flow-fields';

const TITLE_ID = 'payment-receipt-title';

export function PaymentReceipt({ intentId }: { intentId: string }) {
  const receipt = usePaymentReceipt(intentId);
  const jws = receipt.data?.receipt;

  return (
    <Card variant="outlined" component="section" aria-labelledby={TITLE_ID} data-testid="payment-receipt">
      <CardContent>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
          <Typography id={TITLE_ID} variant="h6" component="h2">
            Receipt
          </Typography>
          <Button
            variant="outlined"
            size="small"
            startIcon={<ContentCopyRounded />}
            disabled={!jws}
            onClick={() => void copyToClipboard(jws, 'Receipt', toast)}
            aria-label="Copy receipt"
          >
            Copy
          </Button>
        </Stack>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
          Purser’s signed statement that this payment settled: amount, currency, rail, payee and settlement reference, as a JWS
          signed with the key that signs agent credentials.
        </Typography>
        {receipt.data ? (
          <>
            <Box
              component="code"
              data-testid="payment-receipt-jws"
              sx={{
                display: 'block',
                p: 1.5,
                borderRadius: 1,
                border: 1,
                borderColor: 'divider',
                bgcolor: 'action.hover',
                fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
                fontSize: '0.8125rem',
                wordBreak: 'break-all',
                whiteSpace: 'pre-wrap',
              }}
            >
              {receipt.data.receipt}
            </Box>
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1.5, overflowWrap: 'anywhere' }}>
              To verify it, check the signature against the issuer’s keys published at{' '}
              <ExternalLink href={receipt.data.jwks_url}>{receipt.data.jwks_url}</ExternalLink> (key <Mono>{receipt.data.kid}</Mono>) with any JOSE library, e.g. jose’s <Mono>jwtVerify</Mono>, expecting issuer{' '}
              <Mono>{receipt.data.issuer}</Mono> and type <Mono>{PAYMENT_RECEIPT_TYP}</Mono>.
            </Typography>
          </>
        ) : receipt.isError ? (
          <RetryAlert onRetry={() => void receipt.refetch()}>{errorMessage(receipt.error, 'Unable to load the receipt.')}</RetryAlert>
        ) : (
          <Box role="status" aria-label="Loading receipt">
            <Skeleton variant="rounded" height={96} />
          </Box>
        )}
      </CardContent>
    </Card>
  );
}
