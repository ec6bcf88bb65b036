// What the payment page shows of the HTTP message signature an x402 payment's paid request
// carried (Web Bot Auth on a plain request, Visa TAP's agent-payer-auth on the paid retry): the
// key that signed it, for which host and when, and the directory a seller checks it against; or
// that the request went out unsigned.
import { Stack, Typography } from '@mui/material';
import type { PaymentDetail } from '../hooks/use-payment-detail';
import { formatDateTime } from '../utils/flow-format';
import { SIGNATURE_TAG_LABELS } from '../utils/intent-labels';
import { ExternalLink, FieldList, Mono } from './flow-fields';

export type RequestSignature = NonNullable<NonNullable<PaymentDetail['rail']>['requestSignature']>;

export function RequestSignatureContent({ signature }: { signature: RequestSignature | null }) {
  return (
    <Stack spacing={1} data-testid="request-signature">
      <Typography variant="subtitle2" component="h3">
        Signed request
      </Typography>
      {signature ? (
        <FieldList
          dense
          rows={[
            { label: 'Signature', value: SIGNATURE_TAG_LABELS[signature.tag] },
            { label: 'Key id', value: <Mono>{signature.keyid}</Mono> },
            { label: 'Host', value: <Mono>{signature.host}</Mono> },
            { label: 'Signed at', value: formatDateTime(signature.signed_at) },
            { label: 'Valid until', value: formatDateTime(signature.expires_at) },
            { label: 'Key directory', value: <ExternalLink href={signature.directory_url}>The agent&apos;s public keys</ExternalLink> },
          ]}
        />
      ) : (
        <Typography variant="body2" color="text.secondary">
          Sent unsigned: no HTTP message signature is recorded for the paid request. The agent&apos;s &ldquo;Sign requests&rdquo; setting left it
          unsigned, or the agent sent the request itself with a header from <code>/x402/sign-payment</code>.
        </Typography>
      )}
    </Stack>
  );
}
