// Creating an owner API key: its name, what it may do (at least one scope) and when it expires
// (every key does). The answer (the whole key) goes to the page to show once.
import {
  Alert,
  Box,
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControl,
  FormControlLabel,
  FormGroup,
  FormHelperText,
  FormLabel,
  Radio,
  RadioGroup,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import {
  API_KEY_NAME_MAX_LENGTH,
  OWNER_API_KEY_LIFETIME_CHOICES_DAYS,
  OWNER_API_KEY_SCOPE_DESCRIPTIONS,
  OWNER_API_KEY_SCOPES,
  type OwnerApiKeyScope,
} from '@purser/core';
import { useTRPC } from '../../../shared/trpc';
import type { CreatedOwnerApiKey } from '../api/api-key-types';
import { expiryFromNow, lifetimeLabel } from '../utils/api-keys';
import { errorMessage } from '../utils/trpc-errors';

interface CreateApiKeyDialogProps {
  open: boolean;
  onClose: () => void;
  onCreated: (created: CreatedOwnerApiKey) => void;
}

const DEFAULT_LIFETIME_DAYS = 90;
const NO_SCOPE = 'Choose at least one scope';

export function CreateApiKeyDialog({ open, onClose, onCreated }: CreateApiKeyDialogProps) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<OwnerApiKeyScope[]>([]);
  const [lifetime, setLifetime] = useState<number>(DEFAULT_LIFETIME_DAYS);
  // The missing scope is said once the owner tries to create, not while they are still choosing.
  const [submitted, setSubmitted] = useState(false);
  const create = useMutation(
    trpc.apiKeys.create.mutationOptions({
      onSuccess: (created) => {
        void queryClient.invalidateQueries({ queryKey: trpc.apiKeys.list.queryKey() });
        onCreated(created);
      },
    }),
  );
  const tooLong = name.trim().length > API_KEY_NAME_MAX_LENGTH;
  const noScope = submitted && scopes.length === 0;

  const toggle = (scope: OwnerApiKeyScope, checked: boolean) =>
    setScopes((current) => OWNER_API_KEY_SCOPES.filter((known) => (known === scope ? checked : current.includes(known))));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (!tooLong && scopes.length > 0) create.mutate({ name: name.trim(), scopes, expires_in_days: lifetime });
  };

  return (
    <Dialog open={open} onClose={create.isPending ? undefined : onClose} fullWidth maxWidth="sm" aria-labelledby="create-key-title">
      <Box component="form" noValidate onSubmit={submit} aria-labelledby="create-key-title">
        <DialogTitle id="create-key-title">Create API key</DialogTitle>
        <DialogContent>
          <Stack spacing={2.5} sx={{ pt: 1 }}>
            {create.error ? <Alert severity="error">{errorMessage(create.error, 'Failed to create the API key')}</Alert> : null}
            <TextField
              label="Name"
              autoFocus
              fullWidth
              value={name}
              onChange={(event) => setName(event.target.value)}
              error={tooLong}
              helperText={tooLong ? `Name must be at most ${API_KEY_NAME_MAX_LENGTH} characters` : 'What uses it, e.g. "billing-sync server"'}
            />
            <FormControl component="fieldset" error={noScope} required>
              <FormLabel component="legend">Scopes</FormLabel>
              <FormHelperText id="key-scopes-help" sx={{ mx: 0 }}>
                Give the key only what its job needs. A call outside its scopes is refused and recorded in the audit log.
              </FormHelperText>
              <FormGroup>
                {OWNER_API_KEY_SCOPES.map((scope) => (
                  <FormControlLabel
                    key={scope}
                    sx={{ alignItems: 'flex-start', mt: 0.5 }}
                    control={
                      <Checkbox
                        checked={scopes.includes(scope)}
                        onChange={(event) => toggle(scope, event.target.checked)}
                        slotProps={{ input: { 'aria-describedby': `key-scope-${scope.replace(':', '-')}` } }}
                        sx={{ pt: 0.5 }}
                      />
                    }
                    label={
                      <Box>
                        <Typography component="span" sx={{ fontFamily: 'monospace', fontSize: 14, display: 'block', pt: 0.75 }}>
                          {scope}
                        </Typography>
                        {/* Out of the checkbox's name ("read"), read as its description instead. */}
                        <Typography
                          id={`key-scope-${scope.replace(':', '-')}`}
                          aria-hidden
                          component="span"
                          variant="body2"
                          color="text.secondary"
                          sx={{ display: 'block' }}
                        >
                          {OWNER_API_KEY_SCOPE_DESCRIPTIONS[scope]}
                        </Typography>
                      </Box>
                    }
                  />
                ))}
              </FormGroup>
              {noScope ? <FormHelperText sx={{ mx: 0 }}>{NO_SCOPE}</FormHelperText> : null}
            </FormControl>
            <FormControl component="fieldset">
              <FormLabel component="legend" id="key-lifetime-label">
                Expires after
              </FormLabel>
              <RadioGroup row aria-labelledby="key-lifetime-label" value={String(lifetime)} onChange={(event) => setLifetime(Number(event.target.value))}>
                {OWNER_API_KEY_LIFETIME_CHOICES_DAYS.map((days) => (
                  <FormControlLabel key={days} value={String(days)} control={<Radio />} label={lifetimeLabel(days)} />
                ))}
              </RadioGroup>
              <FormHelperText sx={{ mx: 0 }}>Every key expires: it stops working on {expiryFromNow(lifetime)}. Create a new one before then.</FormHelperText>
            </FormControl>
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose} disabled={create.isPending}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={create.isPending || tooLong}>
            {create.isPending ? 'Creating...' : 'Create key'}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
