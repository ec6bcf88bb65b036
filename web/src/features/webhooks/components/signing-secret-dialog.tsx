// An endpoint's signing secret, shown this once after the endpoint is created or its secret
// rotated: the server keeps it encrypted and never answers it again.
import { SecretShownOnceDialog } from '../../../shared/components/secret-shown-once-dialog';
import { formatDateTime } from '../utils/webhook-format';

export interface ShownSecret {
  url: string;
  secret: string;
  /** After a rotation rather than a creation. */
  rotated: boolean;
  /** After a rotation: until when the replaced secret still signs beside this one; null when it stopped at once. */
  previousSecretExpiresAt?: string | null;
}

interface SigningSecretDialogProps {
  open: boolean;
  /** Kept after closing while the dialog fades out; forgotten when it has. */
  shown: ShownSecret | null;
  onClose: () => void;
  /** After the closing transition: the page forgets the secret. */
  onClosed: () => void;
}

export function SigningSecretDialog({ open, shown, onClose, onClosed }: SigningSecretDialogProps) {
  return (
    <SecretShownOnceDialog
      open={open && shown !== null}
      idPrefix="webhook-secret"
      title={shown?.rotated ? 'New signing secret' : 'Signing secret'}
      warning="Copy this secret now. You will not see it again."
      explanation={
        <>
          Deliveries to {shown?.url} carry a <code>webhook-signature</code> header made with this secret (Standard Webhooks). Verify it before
          trusting a delivery.
          {shown?.rotated ? <RotationNote previousSecretExpiresAt={shown.previousSecretExpiresAt ?? null} /> : null}
        </>
      }
      wrapExplanationAnywhere
      secret={shown?.secret}
      secretTestId="webhook-secret"
      copyLabel="Copy signing secret"
      secretName="Signing secret"
      confirmLabel="I have saved the secret"
      onClose={onClose}
      onClosed={onClosed}
    />
  );
}

/** What the replaced secret does now: signs beside the new one until its expiry, or nothing. */
function RotationNote({ previousSecretExpiresAt }: { previousSecretExpiresAt: string | null }) {
  if (previousSecretExpiresAt === null) return <> The previous secret no longer signs new attempts.</>;
  return (
    <>
      {' '}
      The previous secret also signs every delivery until <time dateTime={previousSecretExpiresAt}>{formatDateTime(previousSecretExpiresAt)}</time>, so
      your receiver verifies with either while you update it; then it stops.
    </>
  );
}
