// The interactive diagram of 'How an Agent Pays', drawn with React Flow. This module is loaded
// on demand (flow-section.tsx), so neither React Flow nor its stylesheet is part of the landing
// page's first download. It only draws: pan and zoom are off, so the page scrolls over it on
// touch and wheel alike. Each part is focusable, names itself and is described by its modules;
// hovering or focusing one reports it to the section, which lists the modules beside it.
import '@xyflow/react/dist/style.css';
import { Box, Typography, useMediaQuery } from '@mui/material';
import { alpha, useTheme } from '@mui/material/styles';
import {
  Handle,
  Position,
  ReactFlow,
  useReactFlow,
  useStore,
  type Edge,
  type Node,
  type NodeProps,
} from '@xyflow/react';
import { useEffect, useMemo, type FocusEvent } from 'react';
import {
  FLOW_DIAGRAM_HEIGHT,
  FLOW_EDGES,
  FLOW_LAYOUTS,
  FLOW_PARTS,
  RAILS_GROUP_ID,
  RAILS_GROUP_LABEL,
  type FlowLayoutName,
  type FlowNodeId,
  type FlowPart,
} from '../data/flow';

const SIDES = { top: Position.Top, right: Position.Right, bottom: Position.Bottom, left: Position.Left } as const;
const FIT_VIEW = { padding: 0.04, maxZoom: 1 } as const;

type PartNode = Node<{ part: FlowPart; active: boolean; width: number; height: number }, 'part'>;
type GroupNode = Node<{ label: string; width: number; height: number }, 'rails'>;

function modulesElementId(id: FlowNodeId): string {
  return `flow-part-${id}-modules`;
}

/** Invisible anchors for edges: one source and one target on each side. */
function Anchors() {
  return (
    <>
      {Object.entries(SIDES).map(([side, position]) => [
        <Handle key={`from-${side}`} type="source" id={`from-${side}`} position={position} isConnectable={false} />,
        <Handle key={`to-${side}`} type="target" id={`to-${side}`} position={position} isConnectable={false} />,
      ])}
    </>
  );
}

function PartNodeView({ data }: NodeProps<PartNode>) {
  const { part, active, width, height } = data;
  return (
    <Box
      sx={(theme) => ({
        width,
        height,
        px: 1.25,
        display: 'flex',
        flexDirection: 'column',
        justifyContent: 'center',
        borderRadius: 2,
        border: 2,
        borderColor: active ? 'primary.main' : 'divider',
        bgcolor: active ? alpha(theme.palette.primary.main, theme.palette.mode === 'dark' ? 0.24 : 0.08) : 'background.paper',
        boxShadow: active ? 4 : 1,
        transition: 'border-color 120ms, background-color 120ms, box-shadow 120ms',
        cursor: 'default',
      })}
    >
      <Anchors />
      <Typography variant="body2" component="span" sx={{ fontWeight: 700, lineHeight: 1.3, color: 'text.primary' }}>
        {part.title}
        {part.sandbox && (
          <Typography component="span" variant="caption" sx={{ ml: 0.75, fontWeight: 600, color: 'text.secondary' }}>
            sandbox
          </Typography>
        )}
      </Typography>
      <Typography variant="caption" component="span" sx={{ color: 'text.secondary', lineHeight: 1.3 }}>
        {part.caption}
      </Typography>
      {/* What a screen reader announces with the node's name (its aria-describedby). */}
      <Box component="span" id={modulesElementId(part.id)} sx={{ display: 'none' }}>
        {`${part.description} Modules: ${part.modules.join('; ')}.`}
      </Box>
    </Box>
  );
}

function RailsGroupView({ data }: NodeProps<GroupNode>) {
  return (
    <Box
      sx={(theme) => ({
        width: data.width,
        height: data.height,
        borderRadius: 3,
        border: 1,
        borderStyle: 'dashed',
        borderColor: 'text.secondary',
        bgcolor: alpha(theme.palette.secondary.main, theme.palette.mode === 'dark' ? 0.1 : 0.06),
        px: 2,
        pt: 1,
      })}
    >
      <Anchors />
      <Typography variant="overline" component="span" sx={{ fontWeight: 700, color: 'text.secondary', lineHeight: 2 }}>
        {data.label}
      </Typography>
    </Box>
  );
}

const nodeTypes = { part: PartNodeView, rails: RailsGroupView };

function buildNodes(layoutName: FlowLayoutName, activeId: FlowNodeId | null): Array<PartNode | GroupNode> {
  const layout = FLOW_LAYOUTS[layoutName];
  const group: GroupNode = {
    id: RAILS_GROUP_ID,
    type: 'rails',
    position: { x: layout.group.x, y: layout.group.y },
    data: { label: RAILS_GROUP_LABEL, width: layout.group.width, height: layout.group.height },
    width: layout.group.width,
    height: layout.group.height,
    focusable: false,
    selectable: false,
    // A frame around the rails, which name themselves: nothing for assistive technology.
    domAttributes: { 'aria-hidden': true, 'aria-roledescription': undefined },
  };
  const parts = FLOW_PARTS.map(
    (part): PartNode => ({
      id: part.id,
      type: 'part',
      position: layout.positions[part.id],
      ...(part.rail && { parentId: RAILS_GROUP_ID, extent: 'parent' as const }),
      data: { part, active: part.id === activeId, width: layout.nodeWidth, height: layout.nodeHeight },
      width: layout.nodeWidth,
      height: layout.nodeHeight,
      ariaLabel: `${part.title}${part.rail ? ' rail' : ''}${part.sandbox ? ' (sandbox)' : ''}`,
      domAttributes: { 'aria-describedby': modulesElementId(part.id) },
    }),
  );
  // A parent must come before its children.
  return [group, ...parts];
}

interface EdgeColors {
  color: string;
  activeColor: string;
  textColor: string;
  backgroundColor: string;
}

function buildEdges(layoutName: FlowLayoutName, activeId: FlowNodeId | null, colors: EdgeColors): Edge[] {
  const { color, activeColor, textColor, backgroundColor } = colors;
  const layout = FLOW_LAYOUTS[layoutName];
  return FLOW_EDGES.map((edge) => {
    const sides = layout.sides[edge.id]!;
    const touchesActive = activeId !== null && (edge.source === activeId || edge.target === activeId);
    return {
      id: edge.id,
      source: edge.source,
      target: edge.target,
      sourceHandle: `from-${sides.from}`,
      targetHandle: `to-${sides.to}`,
      type: 'smoothstep',
      animated: touchesActive,
      ...(!sides.unlabelled && { label: edge.label }),
      ariaLabel: `${edge.source} to ${edge.target}: ${edge.label}`,
      style: { stroke: touchesActive ? activeColor : color, strokeWidth: touchesActive ? 2.5 : 1.5 },
      labelStyle: { fill: textColor, fontSize: 12, fontWeight: 600 },
      labelBgStyle: { fill: backgroundColor },
      labelBgPadding: [4, 2] as [number, number],
    };
  });
}

/** Keeps the whole diagram in view when its container changes width. */
function FitOnResize() {
  const width = useStore((state) => state.width);
  const { fitView } = useReactFlow();
  useEffect(() => {
    if (width > 0) void fitView(FIT_VIEW);
  }, [width, fitView]);
  return null;
}

export interface FlowDiagramProps {
  activeId: FlowNodeId | null;
  onHover(id: FlowNodeId | null): void;
  onFocusPart(id: FlowNodeId | null): void;
}

function asPartId(id: string | null | undefined): FlowNodeId | null {
  return FLOW_PARTS.some((part) => part.id === id) ? (id as FlowNodeId) : null;
}

/** The part a focus event happened on: React Flow focuses the node's wrapper element. */
function partIdOf(target: EventTarget | null): FlowNodeId | null {
  return asPartId(target instanceof HTMLElement ? target.closest('.react-flow__node')?.getAttribute('data-id') : null);
}

export default function FlowDiagram({ activeId, onHover, onFocusPart }: FlowDiagramProps) {
  const theme = useTheme();
  const layoutName: FlowLayoutName = useMediaQuery(theme.breakpoints.down('sm')) ? 'narrow' : 'wide';
  const nodes = useMemo(() => buildNodes(layoutName, activeId), [layoutName, activeId]);
  const { palette } = theme;
  const edges = useMemo(
    () =>
      buildEdges(layoutName, activeId, {
        color: palette.text.secondary,
        activeColor: palette.primary.main,
        textColor: palette.text.primary,
        backgroundColor: palette.background.default,
      }),
    [layoutName, activeId, palette],
  );

  return (
    <Box
      data-testid="flow-diagram"
      onFocus={(event: FocusEvent) => onFocusPart(partIdOf(event.target))}
      onBlur={(event: FocusEvent) => {
        if (!partIdOf(event.relatedTarget)) onFocusPart(null);
      }}
      sx={{
        height: FLOW_DIAGRAM_HEIGHT,
        borderRadius: 3,
        border: 1,
        borderColor: 'divider',
        bgcolor: 'background.default',
        overflow: 'hidden',
        // The page scrolls over the diagram on touch screens.
        '& .react-flow__pane, & .react-flow__node': { touchAction: 'pan-y', cursor: 'default' },
        '& .react-flow__handle': { opacity: 0, pointerEvents: 'none' },
        '& .react-flow__node:focus-visible': { outline: `3px solid ${theme.palette.primary.main}`, outlineOffset: 2, borderRadius: 2 },
        '& .react-flow__edge-path': { transition: 'stroke 120ms' },
        // React Flow paints its own background per color mode; the theme's shows through instead.
        '& .react-flow': { bgcolor: 'transparent' },
        '& .react-flow__attribution': { bgcolor: 'transparent' },
        '& .react-flow__attribution a': { color: 'text.secondary' },
      }}
    >
      <ReactFlow<PartNode | GroupNode>
        // Each layout fits itself once laid out; switching layouts starts afresh.
        key={layoutName}
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        colorMode={theme.palette.mode}
        fitView
        fitViewOptions={FIT_VIEW}
        minZoom={0.3}
        maxZoom={1.5}
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
        onNodeMouseEnter={(_, node) => onHover(asPartId(node.id))}
        onNodeMouseLeave={() => onHover(null)}
        aria-label="Diagram: how a payment moves from the owner’s wallet through the rails to the seller"
      >
        <FitOnResize />
      </ReactFlow>
    </Box>
  );
}
