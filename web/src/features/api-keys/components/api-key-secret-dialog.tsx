// A new owner API key, shown this once: the server keeps only its hash.
import { SecretShownOnceDialog } from '../../../shared/components/secret-shown-once-dialog';
import type { CreatedOwnerApiKey } from '../api/api-key-types';
import { keyLabel } from '../utils/api-keys';

interface ApiKeySecretDialogProps {
  open: boolean;
  /** Kept after closing while the dialog fades out; forgotten with the next key. */
  created: CreatedOwnerApiKey | null;
  onClose: () => void;
  /** After the closing transition: the page forgets the key. */
  onClosed: () => void;
}

export function ApiKeySecretDialog({ open, created, onClose, onClosed }: ApiKeySecretDialogProps) {
  return (
    <SecretShownOnceDialog
      open={open && created !== null}
      idPrefix="owner-key"
      title={`API key ${created ? keyLabel(created) : ''}`}
      warning="Copy this key now. You will not see it again."
      explanation={
        <>
          Send it as <code>Authorization: Bearer &lt;key&gt;</code> to the owner API. Keep it in a secrets manager, never in code.
        </>
      }
      secret={created?.key}
      secretTestId="owner-api-key-secret"
      copyLabel="Copy API key"
      secretName="API key"
      confirmLabel="I have saved the key"
      onClose={onClose}
      onClosed={onClosed}
    />
  );
}
