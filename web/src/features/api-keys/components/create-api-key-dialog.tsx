// Naming a new owner API key; the answer (the whole key) goes to the page to show once.
import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { API_KEY_NAME_MAX_LENGTH } from '@purser/core';
import { useTRPC } from '../../../shared/trpc';
import type { CreatedOwnerApiKey } from '../api/api-key-types';
import { errorMessage } from '../utils/trpc-errors';

interface CreateApiKeyDialogProps {
  open: boolean;
  onClose: () => void;
  onCreated: (created: CreatedOwnerApiKey) => void;
}

export function CreateApiKeyDialog({ open, onClose, onCreated }: CreateApiKeyDialogProps) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const create = useMutation(
    trpc.apiKeys.create.mutationOptions({
      onSuccess: (created) => {
        void queryClient.invalidateQueries({ queryKey: trpc.apiKeys.list.queryKey() });
        onCreated(created);
      },
    }),
  );
  const tooLong = name.trim().length > API_KEY_NAME_MAX_LENGTH;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!tooLong) create.mutate({ name: name.trim() });
  };

  return (
    <Dialog open={open} onClose={create.isPending ? undefined : onClose} fullWidth maxWidth="xs" aria-labelledby="create-key-title">
      <Box component="form" noValidate onSubmit={submit} aria-labelledby="create-key-title">
        <DialogTitle id="create-key-title">Create API key</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
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
