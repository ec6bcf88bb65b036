// One step of the payment drawing: its name, its state in words and a line of detail, drawn
// in the state's colour. Colour never carries the state alone: each state has its icon and
// its word, and the texts keep the theme's own contrast (the state tints borders and icons).
import CheckCircleRounded from '@mui/icons-material/CheckCircleRounded';
import ErrorRounded from '@mui/icons-material/ErrorRounded';
import HourglassTopRounded from '@mui/icons-material/HourglassTopRounded';
import RadioButtonUncheckedRounded from '@mui/icons-material/RadioButtonUncheckedRounded';
import RemoveCircleOutlineRounded from '@mui/icons-material/RemoveCircleOutlineRounded';
import { Box, Typography } from '@mui/material';
import { alpha, keyframes, type Theme } from '@mui/material/styles';
import { Handle, Position, type Node, type NodeProps } from '@xyflow/react';
import type { ReactElement } from 'react';
import { nodeLine, type FlowNodeState, type FlowStep } from '../utils/flow-steps';

export type FlowNodeData = { step: FlowStep; selected: boolean; width: number; height: number };
export type PaymentFlowNode = Node<FlowNodeData, 'step'>;

const SIDES = { top: Position.Top, right: Position.Right, bottom: Position.Bottom, left: Position.Left } as const;

const STATE_ICONS: Record<FlowNodeState, ReactElement> = {
  waiting: <RadioButtonUncheckedRounded fontSize="inherit" />,
  running: <HourglassTopRounded fontSize="inherit" />,
  completed: <CheckCircleRounded fontSize="inherit" />,
  failed: <ErrorRounded fontSize="inherit" />,
  skipped: <RemoveCircleOutlineRounded fontSize="inherit" />,
};

const pulse = keyframes`
  0% { box-shadow: 0 0 0 0 var(--flow-pulse); }
  70% { box-shadow: 0 0 0 8px transparent; }
  100% { box-shadow: 0 0 0 0 transparent; }
`;

/** The colour a state tints its node's border, background and icon with. */
export function stateColor(theme: Theme, state: FlowNodeState): string {
  const { palette } = theme;
  switch (state) {
    case 'running':
      return palette.primary.main;
    case 'completed':
      return palette.success.main;
    case 'failed':
      return palette.error.main;
    case 'skipped':
      return palette.text.disabled;
    default:
      return palette.divider;
  }
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

export function FlowNodeView({ data }: NodeProps<PaymentFlowNode>) {
  const { step, selected, width, height } = data;
  const { state } = step;
  const line = nodeLine(step);
  // A name on one line leaves room for two lines of state and detail.
  const titleLines = step.title.length > 14 ? 2 : 1;
  return (
    <Box
      sx={(theme) => {
        const color = stateColor(theme, state);
        const dark = theme.palette.mode === 'dark';
        return {
          '--flow-pulse': alpha(theme.palette.primary.main, 0.5),
          width,
          height,
          px: 1.25,
          py: 0.5,
          display: 'flex',
          flexDirection: 'column',
          justifyContent: 'center',
          gap: 0.25,
          borderRadius: 2,
          border: state === 'running' || selected ? 2 : 1,
          borderStyle: state === 'skipped' || state === 'waiting' ? 'dashed' : 'solid',
          borderColor: selected ? 'text.primary' : color,
          bgcolor:
            state === 'skipped' || state === 'waiting'
              ? 'background.default'
              : alpha(color, dark ? 0.18 : 0.08),
          boxShadow: selected ? 4 : state === 'waiting' || state === 'skipped' ? 0 : 1,
          transition: 'border-color 200ms, background-color 200ms',
          cursor: 'pointer',
          ...(state === 'running' && {
            animation: `${pulse} 1.6s ease-out infinite`,
            '@media (prefers-reduced-motion: reduce)': { animation: 'none' },
          }),
        };
      }}
    >
      <Anchors />
      <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 0.75, minWidth: 0 }}>
        <Box component="span" aria-hidden sx={(theme) => ({ display: 'inline-flex', fontSize: 18, mt: '1px', color: state === 'waiting' ? 'text.secondary' : stateColor(theme, state) })}>
          {STATE_ICONS[state]}
        </Box>
        <Typography
          component="span"
          // Up to two lines: a long name wraps rather than losing its end.
          sx={{
            fontWeight: 700,
            fontSize: 14,
            lineHeight: 1.25,
            color: state === 'skipped' ? 'text.secondary' : 'text.primary',
            display: '-webkit-box',
            WebkitLineClamp: 2,
            WebkitBoxOrient: 'vertical',
            overflow: 'hidden',
            overflowWrap: 'anywhere',
          }}
        >
          {step.title}
        </Typography>
      </Box>
      <Typography
        component="span"
        sx={{
          fontSize: 12,
          lineHeight: 1.3,
          color: 'text.secondary',
          display: '-webkit-box',
          WebkitLineClamp: 3 - titleLines,
          WebkitBoxOrient: 'vertical',
          overflow: 'hidden',
          overflowWrap: 'anywhere',
        }}
      >
        {line}
      </Typography>
    </Box>
  );
}
