// Where each node of the payment drawing sits, in two layouts, and which sides its edges
// leave and enter by. Plain data, so the layouts are checked without a browser
// (flow-layout.test.ts: no overlaps, the narrow one fits a phone at full size).
//
// The nodes drawn are the workflow's order less any the payment has no use for (the identity
// node is drawn for x402 payments only); every node but the release sits on one spine.
// Wide (tablets and up): the spine in two rows read left to right, the second starting under the
// first like a new line of text; the release branches off below capture and rejoins at the audit.
// Narrow (phones): the spine in one column, the release to the side of capture.
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
  name: FlowLayoutName;
  width: number;
  height: number;
  boxes: Partial<Record<FlowNodeId, FlowBox>>;
  sides: Record<string, { from: Side; to: Side }>;
}

function edge(source: FlowNodeId, target: FlowNodeId): FlowEdgeSpec {
  return { id: `${source}->${target}`, source, target };
}

/** Every node but the release, in the workflow's order. */
function spineOf(ids: readonly FlowNodeId[]): FlowNodeId[] {
  return ids.filter((id) => id !== 'release');
}

/** The edges between the nodes drawn: along the spine, and capture's alternative, the release, from execute to the audit. */
export function flowEdges(ids: readonly FlowNodeId[]): FlowEdgeSpec[] {
  const spine = spineOf(ids);
  const along = spine.slice(1).map((target, index) => edge(spine[index]!, target));
  return [...along, edge('execute', 'release'), edge('release', 'audit')];
}

// ---------------------------------------------------------------- wide

const WIDE_NODE = { width: 148, height: 64 };
const WIDE_STEP_X = 170;
const WIDE_COLUMNS = 6;
const WIDE_ROWS = [0, 104, 192];

function wideBox(column: number, row: number): FlowBox {
  return { x: column * WIDE_STEP_X, y: WIDE_ROWS[row]!, ...WIDE_NODE };
}

function wideLayout(ids: readonly FlowNodeId[]): FlowLayout {
  const spine = spineOf(ids);
  const boxes: FlowLayout['boxes'] = Object.fromEntries(spine.map((id, index) => [id, wideBox(index % WIDE_COLUMNS, Math.floor(index / WIDE_COLUMNS))]));
  boxes.release = { ...boxes.capture!, y: WIDE_ROWS[2]! };
  return {
    name: 'wide',
    width: (WIDE_COLUMNS - 1) * WIDE_STEP_X + WIDE_NODE.width,
    height: WIDE_ROWS[2]! + WIDE_NODE.height,
    boxes,
    sides: {
      // The new line: down from the first row's end, back along the gap between the rows, into the second's start.
      [`${spine[WIDE_COLUMNS - 1]}->${spine[WIDE_COLUMNS]}`]: { from: 'bottom', to: 'top' },
      'execute->release': { from: 'bottom', to: 'left' },
      'release->audit': { from: 'right', to: 'bottom' },
    },
  };
}

// ---------------------------------------------------------------- narrow

const NARROW_SPINE = { x: 0, width: 186 };
const NARROW_BRANCH = { x: 204, width: 120 };
const NARROW_HEIGHT = 60;
const NARROW_STEP_Y = 84;

function narrowLayout(ids: readonly FlowNodeId[]): FlowLayout {
  const spine = spineOf(ids);
  const boxes: FlowLayout['boxes'] = Object.fromEntries(spine.map((id, row) => [id, { ...NARROW_SPINE, y: row * NARROW_STEP_Y, height: NARROW_HEIGHT }]));
  boxes.release = { ...NARROW_BRANCH, y: boxes.capture!.y, height: NARROW_HEIGHT };
  return {
    name: 'narrow',
    width: NARROW_BRANCH.x + NARROW_BRANCH.width,
    height: (spine.length - 1) * NARROW_STEP_Y + NARROW_HEIGHT,
    boxes,
    sides: {
      'execute->release': { from: 'right', to: 'top' },
      // Down the right-hand margin, clear of the settlement, into the audit's side.
      'release->audit': { from: 'bottom', to: 'right' },
    },
  };
}

/** The layout of the nodes drawn (`ids`, in FLOW_NODE_IDS order). */
export function flowLayout(name: FlowLayoutName, ids: readonly FlowNodeId[]): FlowLayout {
  return name === 'wide' ? wideLayout(ids) : narrowLayout(ids);
}

/** The sides an edge leaves and enters by: the layout's exception, else along its reading direction. */
export function edgeSides(layout: FlowLayout, edgeId: string): { from: Side; to: Side } {
  return layout.sides[edgeId] ?? (layout.name === 'wide' ? { from: 'right', to: 'left' } : { from: 'bottom', to: 'top' });
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
