import { describe, expect, it } from 'vitest';
import { dayLabels, formatTick, labelledDays, niceStep, summarizeSpend, valueScale, type SpendDay } from './spend-chart';

const day = (date: string, spent: number): SpendDay => ({ date, spent });

describe('niceStep', () => {
  it('rounds up to 1, 2, 2.5 or 5 times a power of ten', () => {
    expect([0.7, 1, 1.3, 2.2, 2.6, 7, 12, 260, 0.03].map(niceStep)).toEqual([1, 1, 2, 2.5, 5, 10, 20, 500, 0.05]);
  });

  it('answers 1 for zero, negative or non-finite input', () => {
    expect([0, -3, Number.NaN, Infinity].map(niceStep)).toEqual([1, 1, 1, 1]);
  });
});

describe('valueScale', () => {
  it('runs from zero to a round tick at or above the daily limit', () => {
    expect(valueScale([day('2026-11-25', 3), day('2026-11-26', 8)], 10)).toEqual({ max: 10, ticks: [0, 2.5, 5, 7.5, 10] });
  });

  it('holds a day that spent more than the limit', () => {
    const scale = valueScale([day('2026-11-26', 1_340)], 1_000);
    expect(scale.max).toBeGreaterThanOrEqual(1_340);
    expect(scale.ticks[0]).toBe(0);
    expect(scale.ticks).toEqual([0, 500, 1000, 1500]);
  });

  it('still has a height when nothing was spent and the limit is zero', () => {
    expect(valueScale([day('2026-11-26', 0)], 0)).toEqual({ max: 1, ticks: [0, 0.25, 0.5, 0.75, 1] });
  });

  it('keeps tick values free of floating-point noise', () => {
    expect(valueScale([], 0.3).ticks).toEqual([0, 0.1, 0.2, 0.3]);
  });
});

describe('formatTick', () => {
  it('shortens thousands and keeps cents only where they matter', () => {
    expect([0, 2.5, 750, 1500, 20000].map(formatTick)).toEqual(['$0', '$2.50', '$750', '$1.5k', '$20k']);
  });
});

describe('labelledDays', () => {
  it('labels every day when there is room and always today', () => {
    expect(labelledDays(5, 500)).toEqual([0, 1, 2, 3, 4]);
  });

  it('labels fewer days on a narrow chart, counted back from today', () => {
    const indexes = labelledDays(30, 320);
    expect(indexes.at(-1)).toBe(29);
    expect(indexes.length).toBeLessThanOrEqual(6);
    expect(indexes[1]! - indexes[0]!).toBe(indexes[2]! - indexes[1]!);
  });

  it('labels nothing when there are no days', () => {
    expect(labelledDays(0, 300)).toEqual([]);
  });
});

describe('dayLabels', () => {
  it('centres labels under their days and keeps the last one whole inside the plot', () => {
    const labels = dayLabels(30, 50, 650, 60, 20);
    expect(labels.at(-1)).toEqual({ index: 29, x: 630 });
    expect(labels[0]!.x).toBeGreaterThanOrEqual(70);
  });

  it('never puts two labels closer than the gap, even where one is pulled inwards, and keeps them a whole number of days apart', () => {
    for (const width of [320, 326, 360, 390, 480, 800]) {
      const labels = dayLabels(30, 52, width - 8, 60, 20);
      for (let i = 1; i < labels.length; i += 1) expect(labels[i]!.x - labels[i - 1]!.x).toBeGreaterThanOrEqual(60);
      const steps = new Set(labels.slice(1).map((label, at) => label.index - labels[at]!.index));
      expect(steps.size).toBeLessThanOrEqual(1);
      expect(labels.at(-1)!.index).toBe(29);
    }
  });

  it('labels only the last day when nothing else fits', () => {
    expect(dayLabels(30, 0, 70, 60, 20)).toEqual([{ index: 29, x: 50 }]);
    expect(dayLabels(0, 0, 300)).toEqual([]);
  });
});

describe('summarizeSpend', () => {
  it('totals the days, finds the highest and counts the days over the limit', () => {
    const days = [day('2026-11-24', 0), day('2026-11-25', 12.5), day('2026-11-26', 4.25), day('2026-11-27', 0.1), day('2026-11-28', 0.2)];
    expect(summarizeSpend(days, 10)).toEqual({ total: 17.05, highest: days[1], daysWithSpend: 4, daysOverLimit: 1 });
  });

  it('has no highest day when nothing was spent', () => {
    expect(summarizeSpend([day('2026-11-26', 0)], 10)).toEqual({ total: 0, highest: null, daysWithSpend: 0, daysOverLimit: 0 });
  });
});
