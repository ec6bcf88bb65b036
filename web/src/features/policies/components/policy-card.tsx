// One policy in the list: name, version, scope, shadow and enabled state, its rules in words,
// Edit and Delete; for a shadow policy, the payments it would have blocked.
import ExpandMoreRounded from '@mui/icons-material/ExpandMoreRounded';
import VisibilityOutlined from '@mui/icons-material/VisibilityOutlined';
import {
  Accordion,
  AccordionDetails,
  AccordionSummary,
  Box,
  Button,
  Card,
  CardActions,
  CardContent,
  Chip,
  FormControlLabel,
  Stack,
  Switch,
  Typography,
} from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { toast } from 'sonner';
import { useTRPC } from '../../../shared/trpc';
import type { Policy } from '../api/policy-types';
import { useRefreshPolicies } from '../hooks/use-refresh-policies';
import { errorMessage, formatDateTime } from '../utils/display';
import { summarizeRules } from '../utils/policy-summary';
import { WouldHaveBlocked } from './would-have-blocked';

export interface PolicyCardProps {
  policy: Policy;
  /** 'Applies to all agents', or to the one agent it names. */
  scope: string;
  onEdit: () => void;
  onDelete: () => void;
}

export function PolicyCard({ policy, scope, onEdit, onDelete }: PolicyCardProps) {
  const trpc = useTRPC();
  const refresh = useRefreshPolicies();
  const queryClient = useQueryClient();
  const toggle = useMutation(trpc.policies.update.mutationOptions());
  const headingId = useId();

  // The switch moves at once; the list takes the server's answer, and reads again behind it.
  const enabled = toggle.isPending && toggle.variables.enabled !== undefined ? toggle.variables.enabled : policy.enabled;
  const setEnabled = async (next: boolean) => {
    try {
      const saved = await toggle.mutateAsync({ policyId: policy.id, enabled: next });
      queryClient.setQueryData(trpc.policies.list.queryKey(), (list) => list?.map((item) => (item.id === policy.id ? saved : item)));
      toast.success(`Policy "${policy.name}" ${next ? 'enabled' : 'disabled'}`);
      await refresh();
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to change the policy'));
    }
  };

  return (
    <Card variant="outlined" component="article" aria-labelledby={headingId}>
      <CardContent sx={{ pb: 1 }}>
        <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
          <Typography id={headingId} variant="h6" component="h2" sx={{ overflowWrap: 'anywhere', mr: 0.5 }}>
            {policy.name}
          </Typography>
          <Chip size="small" label={`v${policy.version}`} variant="outlined" aria-label={`Version ${policy.version}`} />
          {policy.shadow ? <Chip size="small" label="Shadow" variant="outlined" icon={<VisibilityOutlined />} /> : null}
          {!enabled ? <Chip size="small" label="Disabled" /> : null}
        </Stack>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
          {scope} · version {policy.version} since {formatDateTime(policy.createdAt)}
        </Typography>
        <Box component="ul" sx={{ my: 1.5, pl: 2.5 }} aria-label="Rules">
          {summarizeRules(policy.rules).map((line) => (
            <Typography component="li" variant="body2" key={line} sx={{ overflowWrap: 'anywhere' }}>
              {line}
            </Typography>
          ))}
        </Box>
      </CardContent>
      <CardActions sx={{ px: 2, pb: 1.5, pt: 0, flexWrap: 'wrap', gap: 1 }}>
        <FormControlLabel
          control={<Switch checked={enabled} disabled={toggle.isPending} onChange={(event) => void setEnabled(event.target.checked)} />}
          label="Enabled"
          sx={{ mr: 'auto' }}
        />
        <Button variant="outlined" size="small" onClick={onEdit} aria-label={`Edit ${policy.name}`}>
          Edit
        </Button>
        <Button variant="outlined" size="small" color="error" onClick={onDelete} aria-label={`Delete ${policy.name}`}>
          Delete
        </Button>
      </CardActions>
      {policy.shadow ? (
        <Accordion disableGutters elevation={0} square slotProps={{ transition: { unmountOnExit: true } }} sx={{ borderTop: 1, borderColor: 'divider', '&::before': { display: 'none' } }}>
          <AccordionSummary expandIcon={<ExpandMoreRounded />} sx={{ px: 2 }}>
            <Typography variant="subtitle2" component="span">
              Would have blocked
            </Typography>
          </AccordionSummary>
          <AccordionDetails sx={{ px: 2, pt: 0 }}>
            <WouldHaveBlocked policyId={policy.id} policyName={policy.name} />
          </AccordionDetails>
        </Accordion>
      ) : null}
    </Card>
  );
}
