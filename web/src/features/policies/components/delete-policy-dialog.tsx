// Deleting a policy, after asking: it stops applying at once; its versions stay on record.
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { useTRPC } from '../../../shared/trpc';
import type { Policy } from '../api/policy-types';
import { useRefreshPolicies } from '../hooks/use-refresh-policies';
import { errorMessage } from '../utils/display';

export function DeletePolicyDialog({ policy, onClose }: { policy: Policy | null; onClose: () => void }) {
  const trpc = useTRPC();
  const refresh = useRefreshPolicies();
  const remove = useMutation(trpc.policies.delete.mutationOptions());
  // The policy stays named while the dialog fades out after `policy` went back to null.
  const [shown, setShown] = useState(policy);
  if (policy !== null && policy !== shown) setShown(policy);

  const confirm = async () => {
    if (!policy) return;
    try {
      await remove.mutateAsync({ policyId: policy.id });
      toast.success(`Policy "${policy.name}" deleted`);
      onClose();
      remove.reset();
      await refresh();
    } catch {
      // Shown in the dialog from the mutation's error.
    }
  };

  return (
    <Dialog
      open={policy !== null}
      onClose={remove.isPending ? undefined : onClose}
      fullWidth
      maxWidth="xs"
      aria-labelledby="delete-policy-title"
      slotProps={{ transition: { onExited: () => remove.reset() } }}
    >
      <DialogTitle id="delete-policy-title">Delete policy {shown?.name}?</DialogTitle>
      <DialogContent>
        <DialogContentText>It stops applying to payments at once. Its versions stay on record for the audit trail.</DialogContentText>
        {remove.isError ? (
          <Alert severity="error" sx={{ mt: 2 }}>
            {errorMessage(remove.error, 'Failed to delete the policy')}
          </Alert>
        ) : null}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} disabled={remove.isPending}>
          Cancel
        </Button>
        <Button variant="contained" color="error" onClick={() => void confirm()} disabled={remove.isPending}>
          {remove.isPending ? 'Deleting...' : 'Delete policy'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
