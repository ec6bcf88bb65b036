// Adding an endpoint (URL, description, events) or editing one (the same, and whether it is
// enabled). Creating answers the signing secret, which the page then shows once.
import { Alert, Box, Button, Checkbox, Dialog, DialogActions, DialogContent, DialogTitle, FormControl, FormControlLabel, FormGroup, FormHelperText, FormLabel, Stack, Switch, TextField, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { useTRPC } from '../../../shared/trpc';
import type { WebhookEndpoint } from '../api/webhook-types';
import { endpointChanges, endpointToForm, newEndpointForm, toggleEvent, validateEndpointForm, type EndpointForm, type EndpointFormErrors } from '../utils/endpoint-form';
import { DEFAULT_ENDPOINT_EVENTS, describeEvent, ENDPOINT_EVENT_TYPES } from '../utils/event-types';
import { errorMessage } from '../utils/trpc-errors';
import type { ShownSecret } from './signing-secret-dialog';

interface EndpointFormDialogProps {
  open: boolean;
  /** The endpoint to edit; null adds a new one. */
  endpoint: WebhookEndpoint | null;
  onClose: () => void;
  /** A new endpoint: its id, and its secret to show once. */
  onCreated: (endpointId: string, shown: ShownSecret) => void;
}

export function EndpointFormDialog({ open, endpoint, onClose, onCreated }: EndpointFormDialogProps) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [form, setForm] = useState<EndpointForm>(() => (endpoint ? endpointToForm(endpoint) : newEndpointForm(DEFAULT_ENDPOINT_EVENTS)));
  const [errors, setErrors] = useState<EndpointFormErrors>({});
  const invalidateEndpoints = () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.list.queryKey() });

  const create = useMutation(
    trpc.webhooks.create.mutationOptions({
      onSuccess: (result) => {
        void invalidateEndpoints();
        onCreated(result.endpoint.id, { url: result.endpoint.url, secret: result.secret, rotated: false });
      },
    }),
  );
  const update = useMutation(
    trpc.webhooks.update.mutationOptions({
      onSuccess: (updated) => {
        void invalidateEndpoints();
        toast.success(`Endpoint ${updated.url} updated`);
        onClose();
      },
    }),
  );
  const pending = create.isPending || update.isPending;
  const failure = create.error ?? update.error;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validateEndpointForm(form);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    if (!endpoint) {
      create.mutate({ url: form.url.trim(), description: form.description.trim(), events: form.events });
      return;
    }
    const changes = endpointChanges(endpoint, form);
    if (!changes) {
      onClose();
      return;
    }
    update.mutate({ endpointId: endpoint.id, ...changes });
  };

  const title = endpoint ? 'Edit endpoint' : 'Add endpoint';
  return (
    <Dialog open={open} onClose={pending ? undefined : onClose} fullWidth maxWidth="sm" aria-labelledby="endpoint-form-title">
      <Box component="form" noValidate onSubmit={submit} aria-labelledby="endpoint-form-title">
        <DialogTitle id="endpoint-form-title">{title}</DialogTitle>
        <DialogContent>
          <Stack spacing={2.5} sx={{ pt: 1 }}>
            {failure ? <Alert severity="error">{errorMessage(failure, endpoint ? 'Failed to update the endpoint' : 'Failed to add the endpoint')}</Alert> : null}
            <TextField
              label="Endpoint URL"
              required
              autoFocus
              value={form.url}
              onChange={(event) => {
                setForm({ ...form, url: event.target.value });
                setErrors({ ...errors, url: undefined });
              }}
              error={Boolean(errors.url)}
              helperText={errors.url ?? 'Where Purser POSTs the events, e.g. https://example.com/webhooks/purser'}
              slotProps={{ htmlInput: { inputMode: 'url', spellCheck: false, autoComplete: 'off' } }}
            />
            <TextField
              label="Description"
              value={form.description}
              onChange={(event) => {
                setForm({ ...form, description: event.target.value });
                setErrors({ ...errors, description: undefined });
              }}
              error={Boolean(errors.description)}
              helperText={errors.description ?? 'Optional: what receives these events'}
            />
            <FormControl component="fieldset" error={Boolean(errors.events)}>
              <FormLabel component="legend">Events</FormLabel>
              <FormGroup>
                {ENDPOINT_EVENT_TYPES.map((type) => (
                  <FormControlLabel
                    key={type}
                    sx={{ alignItems: 'flex-start', mt: 0.5 }}
                    control={
                      <Checkbox
                        checked={form.events.includes(type)}
                        onChange={(event) => {
                          setForm({ ...form, events: toggleEvent(form.events, type, event.target.checked, ENDPOINT_EVENT_TYPES) });
                          setErrors({ ...errors, events: undefined });
                        }}
                        sx={{ pt: 0.5 }}
                      />
                    }
                    label={
                      <Box>
                        <Typography component="span" sx={{ fontFamily: 'monospace', fontSize: 14, display: 'block', pt: 0.75 }}>
                          {type}
                        </Typography>
                        {describeEvent(type) ? (
                          <Typography component="span" variant="body2" color="text.secondary" sx={{ display: 'block' }}>
                            {describeEvent(type)}
                          </Typography>
                        ) : null}
                      </Box>
                    }
                  />
                ))}
              </FormGroup>
              {errors.events ? <FormHelperText>{errors.events}</FormHelperText> : null}
            </FormControl>
            {endpoint ? (
              <FormControl>
                <FormControlLabel
                  control={<Switch checked={form.enabled} onChange={(event) => setForm({ ...form, enabled: event.target.checked })} />}
                  label="Enabled"
                />
                <FormHelperText>A disabled endpoint receives no deliveries; its log stays.</FormHelperText>
              </FormControl>
            ) : null}
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={pending}>
            {pending ? 'Saving...' : endpoint ? 'Save changes' : 'Add endpoint'}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
