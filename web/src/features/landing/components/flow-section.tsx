// Landing section 5, 'How an Agent Pays': the five steps of the payment workflow and a diagram
// of the parts a payment crosses. The diagram (React Flow) is a chunk of its own, fetched only
// when the section comes near the viewport; until then a placeholder of the same height holds
// its place, so the page does not jump. The parts' modules are listed under the diagram for
// the part hovered or focused.
import { Avatar, Box, Chip, List, ListItem, ListItemIcon, ListItemText, Paper, Typography } from '@mui/material';
import { Component, lazy, Suspense, useRef, useState, type ReactNode } from 'react';
import { FLOW_DIAGRAM_HEIGHT, FLOW_STEPS, flowPart, type FlowNodeId, type FlowPart } from '../data/flow';
import { useNearViewport } from '../hooks/use-near-viewport';
import { LandingSection } from './landing-section';

const FlowDiagram = lazy(() => import('./flow-diagram'));

/** Start fetching the diagram this far before it scrolls into view. */
const PRELOAD_MARGIN = '300px 0px';

function DiagramPlaceholder({ children }: { children?: ReactNode }) {
  return (
    <Box
      data-testid="flow-diagram-placeholder"
      sx={{
        height: FLOW_DIAGRAM_HEIGHT,
        borderRadius: 3,
        border: 1,
        borderColor: 'divider',
        bgcolor: 'background.default',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        px: 2,
        textAlign: 'center',
      }}
    >
      <Typography variant="body2" color="text.secondary">
        {children ?? 'Loading the diagram…'}
      </Typography>
    </Box>
  );
}

/** A chunk that fails to download costs the diagram, not the landing page. */
class DiagramErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override render() {
    return this.state.failed ? <DiagramPlaceholder>The diagram could not be loaded. Reload the page to try again.</DiagramPlaceholder> : this.props.children;
  }
}

function PartDetails({ part }: { part: FlowPart | undefined }) {
  return (
    <Paper variant="outlined" data-testid="flow-details" sx={{ mt: 2, p: { xs: 2, sm: 3 }, minHeight: { xs: 280, sm: 200 } }}>
      {part ? (
        <>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
            <Typography variant="h6" component="h3" sx={{ fontWeight: 700 }}>
              {part.title}
            </Typography>
            {part.sandbox && <Chip label="sandbox" size="small" variant="outlined" />}
          </Box>
          <Typography color="text.secondary" sx={{ mt: 0.5 }}>
            {part.description}
          </Typography>
          <Typography variant="subtitle2" component="h4" sx={{ mt: 2 }}>
            Modules
          </Typography>
          <Box component="ul" sx={{ m: 0, mt: 0.5, pl: 2.5 }}>
            {part.modules.map((module) => (
              <Typography key={module} component="li" variant="body2" sx={{ py: 0.25 }}>
                {module}
              </Typography>
            ))}
          </Box>
        </>
      ) : (
        <Typography color="text.secondary">
          Hover over a part of the diagram, or move to it with the Tab key, to see the modules it is made of.
        </Typography>
      )}
    </Paper>
  );
}

export function FlowSection() {
  const diagramRef = useRef<HTMLDivElement>(null);
  const near = useNearViewport(diagramRef, PRELOAD_MARGIN);
  const [hovered, setHovered] = useState<FlowNodeId | null>(null);
  const [focused, setFocused] = useState<FlowNodeId | null>(null);
  const activeId = hovered ?? focused;

  return (
    <LandingSection
      id="flow"
      title="How an Agent Pays"
      lead="Five steps from intent to settlement, each one a step of a durable workflow that survives restarts."
    >
      <List component="ol" sx={{ mt: 2 }}>
        {FLOW_STEPS.map((step, index) => (
          <ListItem key={step.title} disableGutters sx={{ alignItems: 'flex-start' }}>
            <ListItemIcon sx={{ mt: 0.75 }}>
              <Avatar sx={{ width: 32, height: 32, bgcolor: 'primary.main', fontSize: 16 }} aria-hidden>
                {index + 1}
              </Avatar>
            </ListItemIcon>
            <ListItemText
              primary={step.title}
              secondary={step.text}
              slotProps={{ primary: { sx: { fontWeight: 700 } }, secondary: { sx: { color: 'text.secondary' } } }}
            />
          </ListItem>
        ))}
      </List>

      <Typography variant="h5" component="h3" sx={{ mt: 6, fontWeight: 700 }}>
        Where the money goes
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1, mb: 3 }}>
        From the owner’s wallet to an agent’s, through the orchestrator and a rail, to the seller, with the x402
        facilitator settling on chain.
      </Typography>
      <Box ref={diagramRef}>
        {near ? (
          <DiagramErrorBoundary>
            <Suspense fallback={<DiagramPlaceholder />}>
              <FlowDiagram activeId={activeId} onHover={setHovered} onFocusPart={setFocused} />
            </Suspense>
          </DiagramErrorBoundary>
        ) : (
          <DiagramPlaceholder />
        )}
      </Box>
      <PartDetails part={flowPart(activeId)} />
    </LandingSection>
  );
}
