// The new agent's API key, shown this once right after Create Agent: the server keeps only
// its hash, so closing this dialog is the last chance to copy it.
import { SecretShownOnceDialog } from '../../../shared/components/secret-shown-once-dialog';

export interface CreatedKey {
  agentName: string;
  key: string;
}

export function ApiKeyDialog({ created, onClose }: { created: CreatedKey | null; onClose: () => void }) {
  return (
    <SecretShownOnceDialog
      open={created !== null}
      idPrefix="api-key"
      title={`API key for ${created?.agentName ?? ''}`}
      warning="Copy this API key now. It will not be shown again."
      explanation="The agent uses this key to call the API. Store it somewhere safe, such as a secrets manager."
      secret={created?.key}
      secretTestId="api-key"
      copyLabel="Copy API key"
      secretName="API key"
      confirmLabel="I have saved the key"
      onClose={onClose}
    />
  );
}
