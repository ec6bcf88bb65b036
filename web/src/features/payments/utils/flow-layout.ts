// Where each node of the payment drawing sits, in two layouts, and which sides its edges
// leave and enter by. Plain data, so the layouts are checked without a browser
// (flow-layout.test.ts: no overlaps, the narrow one fits a phone at full size).
//
// Wide (tablets and up): two rows read left to right, the second starting under the first
// like a new line of text; the release branches off below capture and rejoins at the audit.
// Narrow (phones): one column, the release to the side of capture.
import type { FlowNodeId } from './flow-steps';

export type FlowLayoutName = 'wide' | 'narrow';
export type Side = 'top' | 'right' | 'bottom' | 'left';

export interface FlowBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface FlowEdgeSpec {
  id: string;
  source: FlowNodeId;
  target: FlowNodeId;
}

export interface FlowLayout {
  width: number;
  height: number;
  boxes: Record<FlowNodeId, FlowBox>;
  sides: Record<string, { from: Side; to: Side }>;
}

export const FLOW_EDGES: readonly FlowEdgeSpec[] = (
  [
    ['intent.created', 'policy_gate'],
    ['policy_gate', 'approval'],
    ['approval', 'intent.approved'],
    ['intent.approved', 'rail_selection'],
    ['rail_selection', 'reserve'],
    ['reserve', 'execute'],
    ['execute', 'capture'],
    ['execute', 'release'],
    ['capture', 'settlement.completed'],
    ['settlement.completed', 'audit'],
    ['release', 'audit'],
    ['audit', 'webhooks'],
  ] as const
).map(([source, target]) => ({ id: `${source}->${target}`, source, target }));

// ---------------------------------------------------------------- wide

const WIDE_NODE = { width: 148, height: 64 };
const WIDE_STEP_X = 170;
const WIDE_ROWS = [0, 104, 192];

function wideBox(column: number, row: number): FlowBox {
  return { x: column * WIDE_STEP_X, y: WIDE_ROWS[row]!, ...WIDE_NODE };
}

const WIDE: FlowLayout = {
  width: 5 * WIDE_STEP_X + WIDE_NODE.width,
  height: WIDE_ROWS[2]! + WIDE_NODE.height,
  boxes: {
    'intent.created': wideBox(0, 0),
    policy_gate: wideBox(1, 0),
    approval: wideBox(2, 0),
    'intent.approved': wideBox(3, 0),
    rail_selection: wideBox(4, 0),
    reserve: wideBox(5, 0),
    execute: wideBox(0, 1),
    capture: wideBox(1, 1),
    'settlement.completed': wideBox(2, 1),
    audit: wideBox(3, 1),
    webhooks: wideBox(4, 1),
    release: wideBox(1, 2),
  },
  sides: {
    // The new line: down from the hold, back along the gap between the rows, into execute.
    'reserve->execute': { from: 'bottom', to: 'top' },
    'execute->release': { from: 'bottom', to: 'left' },
    'release->audit': { from: 'right', to: 'bottom' },
  },
};

// ---------------------------------------------------------------- narrow

const NARROW_SPINE = { x: 0, width: 186 };
const NARROW_BRANCH = { x: 204, width: 120 };
const NARROW_HEIGHT = 60;
const NARROW_STEP_Y = 84;

function narrowBox(row: number, branch = false): FlowBox {
  const column = branch ? NARROW_BRANCH : NARROW_SPINE;
  return { x: column.x, y: row * NARROW_STEP_Y, width: column.width, height: NARROW_HEIGHT };
}

const NARROW: FlowLayout = {
  width: NARROW_BRANCH.x + NARROW_BRANCH.width,
  height: 10 * NARROW_STEP_Y + NARROW_HEIGHT,
  boxes: {
    'intent.created': narrowBox(0),
    policy_gate: narrowBox(1),
    approval: narrowBox(2),
    'intent.approved': narrowBox(3),
    rail_selection: narrowBox(4),
    reserve: narrowBox(5),
    execute: narrowBox(6),
    capture: narrowBox(7),
    release: narrowBox(7, true),
    'settlement.completed': narrowBox(8),
    audit: narrowBox(9),
    webhooks: narrowBox(10),
  },
  sides: {
    'execute->release': { from: 'right', to: 'top' },
    // Down the right-hand margin, clear of the settlement, into the audit's side.
    'release->audit': { from: 'bottom', to: 'right' },
  },
};

export const FLOW_LAYOUTS: Record<FlowLayoutName, FlowLayout> = { wide: WIDE, narrow: NARROW };

/** The sides an edge leaves and enters by: the layout's exception, else along its reading direction. */
export function edgeSides(layoutName: FlowLayoutName, edgeId: string): { from: Side; to: Side } {
  return FLOW_LAYOUTS[layoutName].sides[edgeId] ?? (layoutName === 'wide' ? { from: 'right', to: 'left' } : { from: 'bottom', to: 'top' });
}

/** Space around the drawing inside its frame, in screen pixels. */
export const FLOW_PADDING_PX = 16;

/**
 * The zoom that fits the layout across a frame `frameWidth` wide (never above 1: the drawing
 * is sized for reading at 1), and the frame height that shows it whole at that zoom.
 */
export function fitToWidth(layout: Pick<FlowLayout, 'width' | 'height'>, frameWidth: number): { zoom: number; height: number } {
  const zoom = Math.min(1, Math.max(0.1, (frameWidth - 2 * FLOW_PADDING_PX) / layout.width));
  return { zoom, height: Math.ceil(layout.height * zoom + 2 * FLOW_PADDING_PX) };
}
