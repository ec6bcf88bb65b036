// An icon button that copies a value and confirms with a toast ('{thing} copied to clipboard').
import ContentCopyRounded from '@mui/icons-material/ContentCopyRounded';
import { Button, IconButton, Tooltip } from '@mui/material';
import { toast } from 'sonner';
import { copyToClipboard } from '../../../shared/clipboard/copy-to-clipboard';

export function CopyButton({ value, thing }: { value: string | null | undefined; thing: string }) {
  return (
    <Tooltip title={`Copy ${thing}`}>
      <IconButton size="small" aria-label={`Copy ${thing}`} onClick={() => void copyToClipboard(value, thing, toast)}>
        <ContentCopyRounded fontSize="small" />
      </IconButton>
    </Tooltip>
  );
}

/** The same with a visible label, for the primary copy action of a card. */
export function CopyTextButton({ value, thing, label }: { value: string | null | undefined; thing: string; label: string }) {
  return (
    <Button variant="outlined" size="small" startIcon={<ContentCopyRounded />} onClick={() => void copyToClipboard(value, thing, toast)}>
      {label}
    </Button>
  );
}
