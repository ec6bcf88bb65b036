// The protocol navigator (product spec section 2, item 2): twelve chips, and a detail panel
// that says what the chosen protocol is and how Purser supports it. Hovering, focusing or
// tapping a chip chooses it. The chips are toggle buttons (aria-pressed) controlling the
// panel, a polite live region; arrow keys, Home and End move between them.
import AccessTimeRounded from '@mui/icons-material/AccessTimeRounded';
import ArrowForwardRounded from '@mui/icons-material/ArrowForwardRounded';
import CheckCircleRounded from '@mui/icons-material/CheckCircleRounded';
import TimelapseRounded from '@mui/icons-material/TimelapseRounded';
import { Box, Button, Link, Paper, Stack, Typography } from '@mui/material';
import { useRef, useState, type KeyboardEvent } from 'react';
import { Link as RouterLink } from 'react-router';
import { PROTOCOL_STATUS_LABELS, PROTOCOLS, type ProtocolStatus } from '../data/protocols';
import { indexForKey } from '../utils/roving-keys';
import { LandingSection } from './landing-section';

const DETAIL_ID = 'protocol-detail';

type IconComponent = typeof CheckCircleRounded;

const statusLook: Record<ProtocolStatus, { color: string; Icon: IconComponent }> = {
  supported: { color: 'success.main', Icon: CheckCircleRounded },
  partial: { color: 'warning.main', Icon: TimelapseRounded },
  planned: { color: 'text.disabled', Icon: AccessTimeRounded },
};

export function ProtocolNavigatorSection() {
  const [activeId, setActiveId] = useState(PROTOCOLS[0].id);
  const chipRefs = useRef<(HTMLButtonElement | null)[]>([]);
  const active = PROTOCOLS.find((protocol) => protocol.id === activeId) ?? PROTOCOLS[0];

  const onChipKeyDown = (event: KeyboardEvent, index: number) => {
    const next = indexForKey(event.key, index, PROTOCOLS.length);
    if (next === null) return;
    event.preventDefault();
    chipRefs.current[next]?.focus();
  };

  return (
    <LandingSection
      id="protocols"
      eyebrow="Open standards"
      title="Protocol navigator"
      lead="The standards agents pay and prove identity with, and where Purser stands on each. Hover, focus or tap a protocol to see what it is and how Purser supports it."
    >
      <Box sx={{ display: 'grid', gap: { xs: 3, md: 4 }, gridTemplateColumns: { xs: '1fr', md: '5fr 7fr' }, alignItems: 'start' }}>
        <Box>
          <Box role="group" aria-label="Protocols" sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.25 }}>
            {PROTOCOLS.map((protocol, index) => {
              const pressed = protocol.id === active.id;
              return (
                <Button
                  key={protocol.id}
                  ref={(element: HTMLButtonElement | null) => {
                    chipRefs.current[index] = element;
                  }}
                  data-testid={`protocol-chip-${protocol.id}`}
                  aria-pressed={pressed}
                  aria-controls={DETAIL_ID}
                  onMouseEnter={() => setActiveId(protocol.id)}
                  onFocus={() => setActiveId(protocol.id)}
                  onClick={() => setActiveId(protocol.id)}
                  onKeyDown={(event) => onChipKeyDown(event, index)}
                  variant={pressed ? 'contained' : 'outlined'}
                  disableElevation
                  sx={{
                    borderRadius: 999,
                    px: 2,
                    py: 0.75,
                    gap: 1,
                    ...(!pressed && { bgcolor: 'background.paper', color: 'text.primary', borderColor: 'divider' }),
                  }}
                >
                  <Box
                    aria-hidden
                    sx={{
                      width: 8,
                      height: 8,
                      borderRadius: '50%',
                      bgcolor: pressed ? 'currentColor' : statusLook[protocol.status].color,
                      flexShrink: 0,
                    }}
                  />
                  {protocol.name}
                </Button>
              );
            })}
          </Box>
          <Stack component="ul" direction="row" aria-label="Status legend" sx={{ listStyle: 'none', p: 0, m: 0, mt: 3, flexWrap: 'wrap', columnGap: 2.5, rowGap: 1 }}>
            {(Object.keys(PROTOCOL_STATUS_LABELS) as ProtocolStatus[]).map((status) => (
              <Box component="li" key={status} sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
                <Box aria-hidden sx={{ width: 8, height: 8, borderRadius: '50%', bgcolor: statusLook[status].color }} />
                <Typography variant="body2" color="text.secondary">
                  {PROTOCOL_STATUS_LABELS[status]}
                </Typography>
              </Box>
            ))}
          </Stack>
        </Box>

        <Paper
          id={DETAIL_ID}
          role="region"
          aria-live="polite"
          aria-atomic="true"
          aria-labelledby={`${DETAIL_ID}-title`}
          variant="outlined"
          sx={{ p: { xs: 3, md: 4 }, borderRadius: 2, minHeight: { md: 380 } }}
        >
          <Stack direction="row" sx={{ alignItems: 'flex-start', justifyContent: 'space-between', gap: 2, flexWrap: 'wrap' }}>
            <Box>
              <Typography id={`${DETAIL_ID}-title`} variant="h5" component="h3" sx={{ fontWeight: 800 }}>
                {active.name}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {active.kind}
              </Typography>
            </Box>
            <StatusBadge status={active.status} />
          </Stack>
          <Typography variant="subtitle2" component="h4" sx={{ mt: 3 }}>
            What it is
          </Typography>
          <Typography data-testid="protocol-summary" color="text.secondary" sx={{ mt: 0.5 }}>
            {active.summary}
          </Typography>
          <Typography variant="subtitle2" component="h4" sx={{ mt: 3 }}>
            How Purser supports it
          </Typography>
          <Typography data-testid="protocol-support" sx={{ mt: 0.5 }}>
            {active.support}
          </Typography>
          {active.learnMore && (
            <Link
              component={RouterLink}
              to={active.learnMore.to}
              underline="hover"
              sx={{ mt: 3, display: 'inline-flex', alignItems: 'center', gap: 0.5, fontWeight: 600 }}
            >
              {active.learnMore.label}
              <ArrowForwardRounded aria-hidden fontSize="small" />
            </Link>
          )}
        </Paper>
      </Box>
    </LandingSection>
  );
}

function StatusBadge({ status }: { status: ProtocolStatus }) {
  const { color, Icon } = statusLook[status];
  return (
    <Box
      data-testid="protocol-status"
      sx={{
        display: 'inline-flex',
        alignItems: 'center',
        gap: 0.75,
        px: 1.25,
        py: 0.5,
        borderRadius: 999,
        border: 1,
        borderColor: 'divider',
        typography: 'body2',
        fontWeight: 600,
      }}
    >
      <Icon aria-hidden sx={{ fontSize: 18, color }} />
      {PROTOCOL_STATUS_LABELS[status]}
    </Box>
  );
}
