// The owner's endpoints, newest first: URL, description, events, whether enabled, when added,
// and each one's actions. The chosen one's delivery log shows below the list.
import EditRounded from '@mui/icons-material/EditRounded';
import HistoryRounded from '@mui/icons-material/HistoryRounded';
import MoreVertRounded from '@mui/icons-material/MoreVertRounded';
import { Box, Button, Chip, IconButton, ListItemText, Menu, MenuItem, Stack, Typography } from '@mui/material';
import { alpha } from '@mui/material/styles';
import { useState } from 'react';
import type { WebhookEndpoint } from '../api/webhook-types';
import { formatDate } from '../utils/webhook-format';

export type EndpointAction = 'edit' | 'toggle' | 'rotate' | 'delete';

interface EndpointListProps {
  endpoints: readonly WebhookEndpoint[];
  selectedId: string | null;
  onSelect: (endpointId: string) => void;
  onAction: (action: EndpointAction, endpoint: WebhookEndpoint) => void;
}

export function EndpointList({ endpoints, selectedId, onSelect, onAction }: EndpointListProps) {
  return (
    <Box component="ul" aria-label="Webhook endpoints" sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1.5 }}>
      {endpoints.map((endpoint) => (
        <EndpointItem key={endpoint.id} endpoint={endpoint} selected={endpoint.id === selectedId} onSelect={onSelect} onAction={onAction} />
      ))}
    </Box>
  );
}

interface EndpointItemProps {
  endpoint: WebhookEndpoint;
  selected: boolean;
  onSelect: (endpointId: string) => void;
  onAction: (action: EndpointAction, endpoint: WebhookEndpoint) => void;
}

function EndpointItem({ endpoint, selected, onSelect, onAction }: EndpointItemProps) {
  const [menuAnchor, setMenuAnchor] = useState<HTMLElement | null>(null);
  const menuId = `endpoint-menu-${endpoint.id}`;
  const act = (action: EndpointAction) => {
    setMenuAnchor(null);
    onAction(action, endpoint);
  };

  return (
    <Box
      component="li"
      aria-label={endpoint.url}
      aria-current={selected ? 'true' : undefined}
      sx={(theme) => ({
        border: 1,
        borderColor: selected ? 'primary.main' : 'divider',
        borderRadius: 2,
        p: { xs: 1.5, sm: 2 },
        bgcolor: selected ? alpha(theme.palette.primary.main, theme.palette.mode === 'dark' ? 0.12 : 0.05) : 'transparent',
      })}
    >
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={{ xs: 1.5, md: 2 }} sx={{ justifyContent: 'space-between' }}>
        <Box sx={{ minWidth: 0, flex: 1 }}>
          <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
            <Typography component="p" sx={{ fontFamily: 'monospace', fontWeight: 600, overflowWrap: 'anywhere', minWidth: 0 }}>
              {endpoint.url}
            </Typography>
            <Chip
              size="small"
              label={endpoint.enabled ? 'Enabled' : 'Disabled'}
              color={endpoint.enabled ? 'success' : 'default'}
              variant={endpoint.enabled ? 'outlined' : 'filled'}
            />
          </Stack>
          {endpoint.description ? (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5, overflowWrap: 'anywhere' }}>
              {endpoint.description}
            </Typography>
          ) : null}
          <Stack direction="row" spacing={0.75} useFlexGap sx={{ mt: 1, flexWrap: 'wrap' }} aria-label="Events">
            {endpoint.events.map((event) => (
              <Chip key={event} size="small" variant="outlined" label={event} sx={{ fontFamily: 'monospace', fontSize: 12 }} />
            ))}
          </Stack>
          <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 1 }}>
            Added {formatDate(endpoint.createdAt)}
          </Typography>
        </Box>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start', flexShrink: 0 }}>
          <Button
            size="small"
            variant={selected ? 'contained' : 'outlined'}
            startIcon={<HistoryRounded />}
            onClick={() => onSelect(endpoint.id)}
            aria-pressed={selected}
            aria-label={`Deliveries to ${endpoint.url}`}
          >
            Deliveries
          </Button>
          <Button size="small" startIcon={<EditRounded />} onClick={() => onAction('edit', endpoint)} aria-label={`Edit ${endpoint.url}`}>
            Edit
          </Button>
          <IconButton
            size="small"
            aria-label={`More actions for ${endpoint.url}`}
            aria-haspopup="menu"
            aria-controls={menuAnchor ? menuId : undefined}
            aria-expanded={menuAnchor ? 'true' : undefined}
            onClick={(event) => setMenuAnchor(event.currentTarget)}
          >
            <MoreVertRounded />
          </IconButton>
          <Menu id={menuId} anchorEl={menuAnchor} open={menuAnchor !== null} onClose={() => setMenuAnchor(null)}>
            <MenuItem onClick={() => act('toggle')}>
              <ListItemText>{endpoint.enabled ? 'Disable' : 'Enable'}</ListItemText>
            </MenuItem>
            <MenuItem onClick={() => act('rotate')}>
              <ListItemText>Rotate secret</ListItemText>
            </MenuItem>
            <MenuItem onClick={() => act('delete')} sx={{ color: 'error.main' }}>
              <ListItemText>Delete</ListItemText>
            </MenuItem>
          </Menu>
        </Stack>
      </Stack>
    </Box>
  );
}
