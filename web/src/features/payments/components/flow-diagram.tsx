// The live drawing of one payment's workflow with React Flow (loaded with the payment page's
// own chunk, so no other page downloads it). It only draws: no pan, no zoom, no dragging;
// the whole flow fits the frame's width and the frame grows to its height, so the page
// scrolls over it on phones. Each node is focusable; clicking it, focusing it or pressing
// Enter on it shows its detail in the step panel.
import '@xyflow/react/dist/style.css';
import { Box, useMediaQuery } from '@mui/material';
import { useTheme } from '@mui/material/styles';
import { MarkerType, ReactFlow, useReactFlow, type Edge } from '@xyflow/react';
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type FocusEvent, type KeyboardEvent } from 'react';
import { edgeSides, FLOW_PADDING_PX, fitToWidth, flowEdges, flowLayout, type FlowLayout, type FlowLayoutName } from '../utils/flow-layout';
import { FLOW_NODE_IDS, FLOW_NODE_TITLES, type FlowNodeId, type FlowStep } from '../utils/flow-steps';
import { FlowNodeView, stateColor, type PaymentFlowNode } from './flow-node';

const nodeTypes = { step: FlowNodeView };

const ARIA_LABELS = {
  'node.a11yDescription.default': 'Press Enter to show this step’s details.',
  'node.a11yDescription.keyboardDisabled': 'Press Enter to show this step’s details.',
};

export interface FlowDiagramProps {
  steps: readonly FlowStep[];
  selected: FlowNodeId;
  onSelect(id: FlowNodeId): void;
}

function asNodeId(value: string | null | undefined): FlowNodeId | null {
  return (FLOW_NODE_IDS as readonly string[]).includes(value ?? '') ? (value as FlowNodeId) : null;
}

/** The step a DOM event happened on: React Flow's node wrapper carries its id. */
function nodeIdOf(target: EventTarget | null): FlowNodeId | null {
  return asNodeId(target instanceof Element ? target.closest('.react-flow__node')?.getAttribute('data-id') : null);
}

function buildNodes(layout: FlowLayout, steps: readonly FlowStep[], selected: FlowNodeId): PaymentFlowNode[] {
  return steps.flatMap((step) => {
    const box = layout.boxes[step.id];
    if (!box) return [];
    // Read by tests and by assistive technology alike; React Flow spreads them on the node's wrapper.
    const attributes: Record<string, string> = { 'data-testid': `flow-node-${step.id}`, 'data-state': step.state };
    if (step.current) attributes['aria-current'] = 'step';
    return {
      id: step.id,
      type: 'step',
      position: { x: box.x, y: box.y },
      width: box.width,
      height: box.height,
      data: { step, selected: step.id === selected, width: box.width, height: box.height },
      ariaLabel: `${step.title}: ${step.caption}${step.detail ? ` (${step.detail})` : ''}`,
      domAttributes: attributes as PaymentFlowNode['domAttributes'],
    };
  });
}

/** Fits the drawing again whenever the layout or the frame's size changes. */
function FitOnResize({ layout, zoom }: { layout: FlowLayout; zoom: number }) {
  const { fitView } = useReactFlow();
  useEffect(() => {
    void fitView({ padding: 0, maxZoom: zoom, minZoom: zoom });
  }, [fitView, layout, zoom]);
  return null;
}

export function FlowDiagram({ steps, selected, onSelect }: FlowDiagramProps) {
  const theme = useTheme();
  const layoutName: FlowLayoutName = useMediaQuery(theme.breakpoints.down('sm')) ? 'narrow' : 'wide';
  const layout = useMemo(() => flowLayout(layoutName, steps.map((step) => step.id)), [layoutName, steps]);
  const frame = useRef<HTMLDivElement>(null);
  const [frameWidth, setFrameWidth] = useState(0);

  useLayoutEffect(() => {
    const element = frame.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => setFrameWidth(entry?.contentRect.width ?? 0));
    observer.observe(element);
    setFrameWidth(element.getBoundingClientRect().width);
    return () => observer.disconnect();
  }, []);

  const fitted = fitToWidth(layout, frameWidth || layout.width + 2 * FLOW_PADDING_PX);
  const nodes = useMemo(() => buildNodes(layout, steps, selected), [layout, steps, selected]);
  const { palette } = theme;
  const edges = useMemo((): Edge[] => {
    const byId = new Map(steps.map((step) => [step.id, step]));
    return flowEdges(steps.map((step) => step.id)).map((spec) => {
      const target = byId.get(spec.target);
      const state = target?.state ?? 'waiting';
      const color = state === 'waiting' ? palette.text.disabled : stateColor(theme, state);
      const sides = edgeSides(layout, spec.id);
      return {
        id: spec.id,
        source: spec.source,
        target: spec.target,
        sourceHandle: `from-${sides.from}`,
        targetHandle: `to-${sides.to}`,
        type: 'smoothstep',
        // Turns close to the nodes: the default 20 px overlaps across the 40 px between rows,
        // which puts a kink in the edge that wraps from one row to the next.
        pathOptions: { offset: 10 },
        animated: state === 'running',
        ariaLabel: `${FLOW_NODE_TITLES[spec.source]} to ${FLOW_NODE_TITLES[spec.target]}`,
        style: {
          stroke: color,
          strokeWidth: state === 'running' ? 2.5 : state === 'completed' ? 2 : 1.5,
          ...(state === 'skipped' && { strokeDasharray: '4 4' }),
        },
        markerEnd: { type: MarkerType.ArrowClosed, color, width: 16, height: 16 },
      };
    });
  }, [steps, layout, palette, theme]);

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    const id = nodeIdOf(event.target);
    if (!id) return;
    event.preventDefault();
    onSelect(id);
  };
  const onFocus = (event: FocusEvent) => {
    const id = nodeIdOf(event.target);
    if (id) onSelect(id);
  };

  return (
    <Box
      ref={frame}
      data-testid="payment-flow"
      onKeyDown={onKeyDown}
      onFocus={onFocus}
      sx={{
        height: fitted.height,
        borderRadius: 2,
        border: 1,
        borderColor: 'divider',
        bgcolor: 'background.default',
        overflow: 'hidden',
        // The page scrolls over the drawing on touch screens.
        '& .react-flow__pane, & .react-flow__node': { touchAction: 'pan-y' },
        '& .react-flow__pane': { cursor: 'default' },
        '& .react-flow__handle': { opacity: 0, pointerEvents: 'none' },
        '& .react-flow__node:focus-visible': { outline: `3px solid ${palette.primary.main}`, outlineOffset: 3, borderRadius: 2 },
        // React Flow paints its own background per colour mode; the theme's shows through instead.
        '& .react-flow': { bgcolor: 'transparent' },
        '& .react-flow__attribution': { bgcolor: 'transparent' },
        '& .react-flow__attribution a': { color: 'text.secondary' },
      }}
    >
      <ReactFlow<PaymentFlowNode>
        // Each layout fits itself once laid out; switching layouts starts afresh.
        key={layoutName}
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        colorMode={palette.mode}
        fitView
        fitViewOptions={{ padding: 0, maxZoom: fitted.zoom, minZoom: fitted.zoom }}
        minZoom={0.1}
        maxZoom={1}
        nodesDraggable={false}
        nodesConnectable={false}
        elementsSelectable={false}
        edgesFocusable={false}
        autoPanOnNodeFocus={false}
        panOnDrag={false}
        panOnScroll={false}
        zoomOnScroll={false}
        zoomOnPinch={false}
        zoomOnDoubleClick={false}
        preventScrolling={false}
        ariaLabelConfig={ARIA_LABELS}
        onNodeClick={(_, node) => {
          const id = asNodeId(node.id);
          if (id) onSelect(id);
        }}
        aria-label="Payment workflow: each step with its state. Select a step to see its details."
      >
        <FitOnResize layout={layout} zoom={fitted.zoom} />
      </ReactFlow>
    </Box>
  );
}
