// The diagram's two layouts are plain data: every part has a place, rails sit inside their
// group, nothing overlaps, and the narrow layout fits a phone without shrinking.
import { describe, expect, it } from 'vitest';
import { FLOW_EDGES, FLOW_LAYOUTS, FLOW_PARTS, FLOW_STEPS, RAILS_GROUP_ID, type FlowLayoutName } from './flow';

function boxes(name: FlowLayoutName) {
  const layout = FLOW_LAYOUTS[name];
  return FLOW_PARTS.map((part) => {
    const position = layout.positions[part.id];
    const x = position.x + (part.rail ? layout.group.x : 0);
    const y = position.y + (part.rail ? layout.group.y : 0);
    return { id: part.id, x, y, right: x + layout.nodeWidth, bottom: y + layout.nodeHeight };
  });
}

describe('the flow section data', () => {
  it('has the spec’s five steps in order', () => {
    expect(FLOW_STEPS.map((step) => step.title)).toEqual(['Payment Intent', 'Policy and KYA Gate', 'Rail Orchestrator', 'Execute and Settle', 'Audit and Telemetry']);
  });

  it('names the five rails the product has, three of them sandbox simulators', () => {
    const rails = FLOW_PARTS.filter((part) => part.rail);
    expect(rails.map((part) => part.id)).toEqual(['rail-ledger', 'rail-x402', 'rail-solana', 'rail-card', 'rail-bank']);
    expect(rails.filter((part) => part.sandbox).map((part) => part.id)).toEqual(['rail-solana', 'rail-card', 'rail-bank']);
    for (const part of FLOW_PARTS) expect(part.modules.length, part.id).toBeGreaterThanOrEqual(3);
  });

  it.each(['wide', 'narrow'] as const)('lays every part out without overlaps in the %s layout', (name) => {
    const layout = FLOW_LAYOUTS[name];
    const placed = boxes(name);
    for (const [index, a] of placed.entries()) {
      for (const b of placed.slice(index + 1)) {
        const overlap = a.x < b.right && b.x < a.right && a.y < b.bottom && b.y < a.bottom;
        expect(overlap, `${a.id} overlaps ${b.id}`).toBe(false);
      }
    }
    for (const part of FLOW_PARTS.filter((p) => p.rail)) {
      const position = layout.positions[part.id];
      expect(position.x + layout.nodeWidth, part.id).toBeLessThanOrEqual(layout.group.width);
      expect(position.y + layout.nodeHeight, part.id).toBeLessThanOrEqual(layout.group.height);
    }
    for (const edge of FLOW_EDGES) {
      expect(layout.sides[edge.id], edge.id).toBeDefined();
      for (const end of [edge.source, edge.target]) expect(end === RAILS_GROUP_ID || FLOW_PARTS.some((part) => part.id === end), end).toBe(true);
    }
  });

  it('fits the narrow layout in a 390 px phone’s content width at full size', () => {
    const right = Math.max(...boxes('narrow').map((box) => box.right), FLOW_LAYOUTS.narrow.group.x + FLOW_LAYOUTS.narrow.group.width);
    expect(right).toBeLessThanOrEqual(390 - 2 * 16);
  });
});
