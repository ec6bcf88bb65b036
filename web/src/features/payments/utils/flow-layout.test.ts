import { describe, expect, it } from 'vitest';
import { edgeSides, FLOW_EDGES, FLOW_LAYOUTS, FLOW_PADDING_PX, fitToWidth, type FlowLayoutName } from './flow-layout';
import { FLOW_NODE_IDS } from './flow-steps';

describe('the payment drawing’s layouts', () => {
  it.each(['wide', 'narrow'] as const)('places every node inside the %s layout without overlaps', (name: FlowLayoutName) => {
    const layout = FLOW_LAYOUTS[name];
    const boxes = FLOW_NODE_IDS.map((id) => ({ id, ...layout.boxes[id] }));
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
    const edges = FLOW_EDGES.map((edge) => `${edge.source} -> ${edge.target}`);
    expect(edges).toContain('execute -> capture');
    expect(edges).toContain('execute -> release');
    expect(edges).toContain('release -> audit');
    expect(edges).toContain('capture -> settlement.completed');
    expect(new Set(FLOW_EDGES.flatMap((edge) => [edge.source, edge.target]))).toEqual(new Set(FLOW_NODE_IDS));
  });

  it('reads the narrow layout top to bottom and the wide one left to right, but for the named turns', () => {
    expect(edgeSides('narrow', 'intent.created->policy_gate')).toEqual({ from: 'bottom', to: 'top' });
    expect(edgeSides('wide', 'intent.created->policy_gate')).toEqual({ from: 'right', to: 'left' });
    expect(edgeSides('wide', 'reserve->execute')).toEqual({ from: 'bottom', to: 'top' });
  });

  it('shows the narrow layout at full size on a 390 px phone and barely smaller at 360 px', () => {
    // The page's side padding (16 px each side) and the frame's border leave 356 px at 390.
    expect(fitToWidth(FLOW_LAYOUTS.narrow, 390 - 2 * 16 - 2).zoom).toBe(1);
    expect(fitToWidth(FLOW_LAYOUTS.narrow, 360 - 2 * 16 - 2).zoom).toBeGreaterThan(0.9);
  });

  it('sizes the frame to the drawing at its zoom', () => {
    const fitted = fitToWidth({ width: 1000, height: 200 }, 500 + 2 * FLOW_PADDING_PX);
    expect(fitted.zoom).toBe(0.5);
    expect(fitted.height).toBe(100 + 2 * FLOW_PADDING_PX);
    expect(fitToWidth({ width: 100, height: 50 }, 2000).zoom).toBe(1);
  });
});
