// Route '/dashboard/webhooks': the owner's webhook endpoints (add, edit, enable or disable,
// rotate the signing secret, delete) and the chosen endpoint's delivery log (?endpoint=<id>).
import AddRounded from '@mui/icons-material/AddRounded';
import { Box, Button, Card, CardContent, Checkbox, Container, FormControlLabel, Link, Skeleton, Stack, Typography } from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { RetryAlert } from '../../../shared/components/retry-alert';
import { ASSISTANT_BUTTON_CLEARANCE } from '../../../shared/layout/assistant-button-space';
import { useTRPC } from '../../../shared/trpc';
import type { WebhookEndpoint } from '../api/webhook-types';
import { errorMessage } from '../utils/trpc-errors';
import { ConfirmDialog } from './confirm-dialog';
import { DeliveryLog } from './delivery-log';
import { EndpointFormDialog } from './endpoint-form-dialog';
import { EndpointList, type EndpointAction } from './endpoint-list';
import { SigningSecretDialog, type ShownSecret } from './signing-secret-dialog';

interface FormState {
  open: boolean;
  endpoint: WebhookEndpoint | null;
  /** Bumped on every opening, so the dialog starts from its defaults each time. */
  key: number;
}

/** The question being asked; kept (open: false) while its dialog fades out, so its text stays. */
type Confirming = { action: 'rotate' | 'delete'; endpoint: WebhookEndpoint; open: boolean } | null;

export function WebhooksPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const endpoints = useQuery(trpc.webhooks.list.queryOptions());
  const [searchParams, setSearchParams] = useSearchParams();
  const [form, setForm] = useState<FormState>({ open: false, endpoint: null, key: 0 });
  // The secret lives only in this state; it is dropped when its dialog has closed.
  const [shownSecret, setShownSecret] = useState<{ value: ShownSecret; open: boolean } | null>(null);
  const [confirming, setConfirming] = useState<Confirming>(null);
  // Rotating: stop the current secret at once (it leaked) instead of letting it sign for 24 hours more.
  const [stopAtOnce, setStopAtOnce] = useState(false);

  const list = endpoints.data?.endpoints ?? [];
  const wanted = searchParams.get('endpoint');
  const selected = list.find((endpoint) => endpoint.id === wanted) ?? list[0] ?? null;
  const select = (endpointId: string) =>
    setSearchParams(
      (params) => {
        params.set('endpoint', endpointId);
        return params;
      },
      { replace: true },
    );

  const invalidateEndpoints = () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.list.queryKey() });
  const openForm = (endpoint: WebhookEndpoint | null) => setForm((current) => ({ open: true, endpoint, key: current.key + 1 }));
  const closeForm = () => setForm((current) => ({ ...current, open: false }));
  const closeConfirm = () => setConfirming((current) => (current ? { ...current, open: false } : null));

  const toggle = useMutation(
    trpc.webhooks.update.mutationOptions({
      onSuccess: (updated) => {
        void invalidateEndpoints();
        toast.success(`${updated.url} ${updated.enabled ? 'enabled' : 'disabled'}`);
      },
      onError: (error) => toast.error(errorMessage(error, 'Failed to update the endpoint')),
    }),
  );
  const rotate = useMutation(
    trpc.webhooks.rotateSecret.mutationOptions({
      onSuccess: (result) => {
        closeConfirm();
        setShownSecret({
          value: { url: result.endpoint.url, secret: result.secret, rotated: true, previousSecretExpiresAt: result.previousSecretExpiresAt },
          open: true,
        });
        void invalidateEndpoints();
      },
      onError: (error) => toast.error(errorMessage(error, 'Failed to rotate the signing secret')),
    }),
  );
  const remove = useMutation(
    trpc.webhooks.delete.mutationOptions({
      onSuccess: (_result, { endpointId }) => {
        const url = list.find((endpoint) => endpoint.id === endpointId)?.url;
        toast.success(url ? `Endpoint ${url} deleted` : 'Endpoint deleted');
        closeConfirm();
        void invalidateEndpoints();
      },
      onError: (error) => toast.error(errorMessage(error, 'Failed to delete the endpoint')),
    }),
  );

  const onAction = (action: EndpointAction, endpoint: WebhookEndpoint) => {
    if (action === 'edit') openForm(endpoint);
    else if (action === 'toggle') toggle.mutate({ endpointId: endpoint.id, enabled: !endpoint.enabled });
    else {
      setStopAtOnce(false);
      setConfirming({ action, endpoint, open: true });
    }
  };

  return (
    <Container component="main" maxWidth="xl" sx={{ pt: { xs: 3, md: 4 }, pb: ASSISTANT_BUTTON_CLEARANCE }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ justifyContent: 'space-between', alignItems: { sm: 'flex-start' }, mb: 3 }}>
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="h4" component="h1" sx={{ fontWeight: 700 }}>
            Webhooks
          </Typography>
          <Typography color="text.secondary" sx={{ mt: 1, maxWidth: 720 }}>
            Purser POSTs payment events to your endpoints, signed with each endpoint’s secret as{' '}
            <Link href="https://www.standardwebhooks.com/" target="_blank" rel="noopener noreferrer">
              Standard Webhooks
            </Link>{' '}
            describes, and retries failed deliveries for up to 25 hours. See{' '}
            <Link component={RouterLink} to="/docs#webhooks">
              Webhooks in the docs
            </Link>
            .
          </Typography>
        </Box>
        {list.length > 0 ? (
          <Button variant="contained" startIcon={<AddRounded />} onClick={() => openForm(null)} sx={{ flexShrink: 0 }}>
            Add endpoint
          </Button>
        ) : null}
      </Stack>

      {endpoints.isPending ? (
        <PageSkeleton />
      ) : endpoints.isError ? (
        <RetryAlert onRetry={() => void endpoints.refetch()}>
          {errorMessage(endpoints.error, 'Unable to load your webhook endpoints.')}
        </RetryAlert>
      ) : list.length === 0 ? (
        <Card variant="outlined" component="section" aria-label="No endpoints">
          <CardContent sx={{ textAlign: 'center', py: 6 }}>
            <Typography variant="h6" component="h2">
              No endpoints yet
            </Typography>
            <Typography color="text.secondary" sx={{ mt: 1, mb: 3, maxWidth: 520, mx: 'auto' }}>
              Add an endpoint to receive intent.created, intent.approved, settlement.completed and the other payment events as they happen.
            </Typography>
            <Button variant="contained" startIcon={<AddRounded />} onClick={() => openForm(null)}>
              Add endpoint
            </Button>
          </CardContent>
        </Card>
      ) : (
        <Stack spacing={3}>
          <Card variant="outlined" component="section" aria-labelledby="endpoints-title">
            <CardContent>
              <Typography variant="h6" component="h2" id="endpoints-title" sx={{ mb: 2 }}>
                Endpoints
              </Typography>
              <EndpointList endpoints={list} selectedId={selected?.id ?? null} onSelect={select} onAction={onAction} />
            </CardContent>
          </Card>
          {selected ? <DeliveryLog key={selected.id} endpoint={selected} /> : null}
        </Stack>
      )}

      <EndpointFormDialog
        key={form.key}
        open={form.open}
        endpoint={form.endpoint}
        onClose={closeForm}
        onCreated={(endpointId, shown) => {
          closeForm();
          select(endpointId);
          setShownSecret({ value: shown, open: true });
        }}
      />
      <SigningSecretDialog
        open={shownSecret?.open ?? false}
        shown={shownSecret?.value ?? null}
        onClose={() => setShownSecret((current) => (current ? { ...current, open: false } : null))}
        onClosed={() => setShownSecret(null)}
      />
      <ConfirmDialog
        open={confirming?.action === 'rotate' && confirming.open}
        title="Rotate signing secret?"
        confirmLabel="Rotate secret"
        pendingLabel="Rotating..."
        pending={rotate.isPending}
        onClose={closeConfirm}
        onConfirm={() => confirming && rotate.mutate({ endpointId: confirming.endpoint.id, ...(stopAtOnce && { overlapSeconds: 0 }) })}
        extra={
          <FormControlLabel
            sx={{ mt: 1 }}
            control={<Checkbox checked={stopAtOnce} onChange={(event) => setStopAtOnce(event.target.checked)} disabled={rotate.isPending} />}
            label="Stop the current secret at once (it may have leaked)"
          />
        }
      >
        Every delivery to {confirming?.endpoint.url} from now on is signed with a new secret, shown once.{' '}
        {stopAtOnce
          ? 'The current secret stops signing at once: until your receiver has the new one, it cannot verify the deliveries.'
          : 'The current secret signs each delivery beside it for 24 hours, so your receiver keeps verifying while you update it.'}
      </ConfirmDialog>
      <ConfirmDialog
        open={confirming?.action === 'delete' && confirming.open}
        title="Delete endpoint?"
        confirmLabel="Delete endpoint"
        pendingLabel="Deleting..."
        pending={remove.isPending}
        onClose={closeConfirm}
        onConfirm={() => confirming && remove.mutate({ endpointId: confirming.endpoint.id })}
      >
        {confirming?.endpoint.url} stops receiving events at once, and retries still due to it are dropped. This cannot be undone.
      </ConfirmDialog>
    </Container>
  );
}

function PageSkeleton() {
  return (
    <Box aria-busy="true" aria-label="Loading webhook endpoints">
      <Skeleton variant="rounded" height={140} />
      <Skeleton variant="rounded" height={260} sx={{ mt: 3 }} />
    </Box>
  );
}
