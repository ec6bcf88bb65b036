import { describe, expect, it } from 'vitest';
import { edgeSides, FLOW_PADDING_PX, fitToWidth, flowEdges, flowLayout, type FlowLayoutName } from './flow-layout';
import { FLOW_NODE_IDS, type FlowNodeId } from './flow-steps';

/** An x402 payment draws every node; the other rails send no request and draw no identity node. */
const DRAWINGS: Record<string, readonly FlowNodeId[]> = {
  x402: FLOW_NODE_IDS,
  ledger: FLOW_NODE_IDS.filter((id) => id !== 'identity'),
};
const CASES = (['wide', 'narrow'] as const).flatMap((name) => Object.keys(DRAWINGS).map((payment) => [name, payment] as const));

describe('the payment drawing’s layouts', () => {
  it.each(CASES)('places every node inside the %s layout of a %s payment without overlaps', (name: FlowLayoutName, payment: string) => {
    const ids = DRAWINGS[payment]!;
    const layout = flowLayout(name, ids);
    expect(Object.keys(layout.boxes).sort()).toEqual([...ids].sort());
    const boxes = ids.map((id) => ({ id, ...layout.boxes[id]! }));
    for (const box of boxes) {
      expect(box.x, box.id).toBeGreaterThanOrEqual(0);
      expect(box.y, box.id).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, box.id).toBeLessThanOrEqual(layout.width);
      expect(box.y + box.height, box.id).toBeLessThanOrEqual(layout.height);
    }
    for (const [index, a] of boxes.entries()) {
      for (const b of boxes.slice(index + 1)) {
        const apart = a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;
        expect(apart, `${a.id} overlaps ${b.id}`).toBe(true);
      }
    }
  });

  it('joins the workflow’s steps in order, with capture and release as a branch from execute to the audit', () => {
    const edges = flowEdges(DRAWINGS.ledger!).map((edge) => `${edge.source} -> ${edge.target}`);
    expect(edges).toContain('reserve -> execute');
    expect(edges).toContain('execute -> capture');
    expect(edges).toContain('execute -> release');
    expect(edges).toContain('release -> audit');
    expect(edges).toContain('capture -> settlement.completed');
    expect(new Set(flowEdges(DRAWINGS.ledger!).flatMap((edge) => [edge.source, edge.target]))).toEqual(new Set(DRAWINGS.ledger));
  });

  it('sends an x402 payment from the hold through its identity to execute, and draws it at the start of the second row', () => {
    const edges = flowEdges(FLOW_NODE_IDS).map((edge) => `${edge.source} -> ${edge.target}`);
    expect(edges).toContain('reserve -> identity');
    expect(edges).toContain('identity -> execute');
    expect(edges).not.toContain('reserve -> execute');
    expect(new Set(flowEdges(FLOW_NODE_IDS).flatMap((edge) => [edge.source, edge.target]))).toEqual(new Set(FLOW_NODE_IDS));
    const wide = flowLayout('wide', FLOW_NODE_IDS);
    expect(wide.boxes.identity).toMatchObject({ x: 0, y: wide.boxes.execute!.y });
    expect(edgeSides(wide, 'reserve->identity')).toEqual({ from: 'bottom', to: 'top' });
    // The drawing keeps its width: the second row has room for one more node.
    expect(wide.width).toBe(flowLayout('wide', DRAWINGS.ledger!).width);
    const narrow = flowLayout('narrow', FLOW_NODE_IDS);
    expect(narrow.boxes.identity!.y).toBeGreaterThan(narrow.boxes.reserve!.y);
    expect(narrow.boxes.identity!.y).toBeLessThan(narrow.boxes.execute!.y);
  });

  it('reads the narrow layout top to bottom and the wide one left to right, but for the named turns', () => {
    const narrow = flowLayout('narrow', DRAWINGS.ledger!);
    const wide = flowLayout('wide', DRAWINGS.ledger!);
    expect(edgeSides(narrow, 'intent.created->policy_gate')).toEqual({ from: 'bottom', to: 'top' });
    expect(edgeSides(wide, 'intent.created->policy_gate')).toEqual({ from: 'right', to: 'left' });
    expect(edgeSides(wide, 'reserve->execute')).toEqual({ from: 'bottom', to: 'top' });
  });

  it('shows the narrow layout at full size on a 390 px phone and barely smaller at 360 px', () => {
    // The page's side padding (16 px each side) and the frame's border leave 356 px at 390.
    const narrow = flowLayout('narrow', FLOW_NODE_IDS);
    expect(fitToWidth(narrow, 390 - 2 * 16 - 2).zoom).toBe(1);
    expect(fitToWidth(narrow, 360 - 2 * 16 - 2).zoom).toBeGreaterThan(0.9);
  });

  it('sizes the frame to the drawing at its zoom', () => {
    const fitted = fitToWidth({ width: 1000, height: 200 }, 500 + 2 * FLOW_PADDING_PX);
    expect(fitted.zoom).toBe(0.5);
    expect(fitted.height).toBe(100 + 2 * FLOW_PADDING_PX);
    expect(fitToWidth({ width: 100, height: 50 }, 2000).zoom).toBe(1);
  });
});
