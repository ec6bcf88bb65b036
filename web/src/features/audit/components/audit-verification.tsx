// The chain's verification at the top of the audit page (audit.verify): "Verified through
// entry N", "Broken at entry N: <reason>" or "No entries yet", and Verify again. The check
// reads the whole chain, so it runs once per visit and when asked, not on every focus.
import VerifiedRounded from '@mui/icons-material/VerifiedRounded';
import { Alert, AlertTitle, Button, CircularProgress, Skeleton, Stack } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '../../../shared/trpc';
import { summarizeVerification } from '../utils/audit-format';
import { errorMessage } from '../utils/trpc-errors';

export function AuditVerification() {
  const trpc = useTRPC();
  const verify = useQuery({ ...trpc.audit.verify.queryOptions(), staleTime: Infinity, refetchOnWindowFocus: false });

  const again = (
    <Button
      color="inherit"
      size="small"
      onClick={() => void verify.refetch()}
      disabled={verify.isFetching}
      startIcon={verify.isFetching ? <CircularProgress size={14} color="inherit" aria-hidden /> : <VerifiedRounded />}
      sx={{ whiteSpace: 'nowrap', alignSelf: { xs: 'flex-start', sm: 'auto' }, flexShrink: 0 }}
    >
      {verify.isFetching ? 'Verifying...' : 'Verify again'}
    </Button>
  );

  if (verify.isPending) {
    return <Skeleton variant="rounded" height={72} role="status" aria-label="Verifying the audit log" />;
  }
  if (verify.isError) {
    return (
      <Alert severity="warning" data-testid="audit-verification" sx={alertLayout}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ justifyContent: 'space-between', alignItems: { sm: 'flex-start' } }}>
          <div>
            <AlertTitle>Not verified</AlertTitle>
            {errorMessage(verify.error, 'The audit log could not be verified just now.')}
          </div>
          {again}
        </Stack>
      </Alert>
    );
  }
  const summary = summarizeVerification(verify.data);
  return (
    <Alert severity={summary.severity} data-testid="audit-verification" aria-live="polite" sx={alertLayout}>
      {/* The button goes below the words on a phone, beside them on wider screens. */}
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ justifyContent: 'space-between', alignItems: { sm: 'flex-start' } }}>
        <div>
          <AlertTitle sx={{ fontWeight: 700 }}>{summary.title}</AlertTitle>
          {summary.detail}
        </div>
        {again}
      </Stack>
    </Alert>
  );
}

/** The message fills the alert, so its button can sit at the far end. */
const alertLayout = { '& .MuiAlert-message': { flex: 1, minWidth: 0 } } as const;
