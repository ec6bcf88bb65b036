// The arithmetic of the spend chart (components/spend-chart.tsx): a value axis with round
// ticks that holds every day's spend and the daily limit, which days get a date label at a
// given width, and the figures the chart's text summary states.

export interface SpendDay {
  /** A UTC day, 'YYYY-MM-DD'. */
  date: string;
  /** Dollars spent that day (settled and held payments). */
  spent: number;
  /** The part of `spent` paid from payment sessions. */
  sessionSpent?: number;
}

export interface ValueScale {
  /** The top of the axis, in dollars: a tick, at or above every value drawn. */
  max: number;
  /** Tick values from 0 up to `max`, evenly spaced. */
  ticks: number[];
}

/** The round step (1, 2, 2.5 or 5 times a power of ten) at or above `rough`. */
export function niceStep(rough: number): number {
  if (!(rough > 0) || !Number.isFinite(rough)) return 1;
  const power = 10 ** Math.floor(Math.log10(rough));
  const fraction = rough / power;
  const nice = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 2.5 ? 2.5 : fraction <= 5 ? 5 : 10;
  // Rounded so 0.1 * 3 does not come out as 0.30000000000000004.
  return Number((nice * power).toPrecision(12));
}

/**
 * An axis from 0 that holds the highest day and the limit, with about `tickCount` steps.
 * With nothing spent and no limit the axis still runs to $1, so the chart has a height.
 */
export function valueScale(days: readonly SpendDay[], dailyLimit: number, tickCount = 4): ValueScale {
  const highest = Math.max(0, dailyLimit, ...days.map((day) => day.spent)) || 1;
  const step = niceStep(highest / tickCount);
  const steps = Math.max(1, Math.ceil(Number((highest / step).toPrecision(12))));
  const ticks = Array.from({ length: steps + 1 }, (_, index) => Number((index * step).toPrecision(12)));
  return { max: ticks[ticks.length - 1]!, ticks };
}

/** A tick's label: '$0', '$2.50', '$750', '$1.5k', '$20k'. */
export function formatTick(value: number): string {
  if (value >= 1000) return `$${Number((value / 1000).toPrecision(6))}k`;
  return Number.isInteger(value) ? `$${value}` : `$${value.toFixed(2)}`;
}

/**
 * Which days get a date under them: about one every `minLabelGap` pixels, always the last
 * (today), counted back from it so the labels keep their days as the chart narrows.
 */
export function labelledDays(count: number, plotWidth: number, minLabelGap = 56): number[] {
  if (count <= 0) return [];
  const slot = plotWidth / count;
  return everyNthDay(count, Math.max(1, Math.ceil(minLabelGap / Math.max(slot, 1))));
}

/** Every `every`th day, counted back from the last. */
function everyNthDay(count: number, every: number): number[] {
  const indexes: number[] = [];
  for (let index = count - 1; index >= 0; index -= every) indexes.unshift(index);
  return indexes;
}

export interface DayLabel {
  index: number;
  /** The label's centre, in pixels from the drawing's left edge. */
  x: number;
}

/**
 * Where the date labels go along a plot from `left` to `right` pixels: every nth day back from
 * the last (labelledDays), centred under it but pulled inwards at either end so a label of
 * `halfWidth` stays whole. Where a pulled label would come closer than `gap` to its neighbour,
 * every label spreads one day further apart, so they stay evenly spaced.
 */
export function dayLabels(count: number, left: number, right: number, gap = 56, halfWidth = 20): DayLabel[] {
  if (count <= 0) return [];
  const slot = (right - left) / count;
  const place = (index: number) => ({ index, x: Math.min(Math.max(left + index * slot + slot / 2, left + halfWidth), right - halfWidth) });
  const first = Math.max(1, Math.ceil(gap / Math.max(slot, 1)));
  for (let every = first; every < count; every += 1) {
    const labels = everyNthDay(count, every).map(place);
    if (labels.every((label, at) => at === 0 || label.x - labels[at - 1]!.x >= gap)) return labels;
  }
  return [place(count - 1)];
}

export interface SpendSummary {
  total: number;
  /** The day with the highest spend; null when nothing was spent. */
  highest: SpendDay | null;
  daysWithSpend: number;
  /** Days whose spend is above the current daily limit (the limit may have been higher then). */
  daysOverLimit: number;
}

export function summarizeSpend(days: readonly SpendDay[], dailyLimit: number): SpendSummary {
  let highest: SpendDay | null = null;
  let total = 0;
  let daysWithSpend = 0;
  let daysOverLimit = 0;
  for (const day of days) {
    total += day.spent;
    if (day.spent > 0) daysWithSpend += 1;
    if (day.spent > dailyLimit) daysOverLimit += 1;
    if (day.spent > 0 && (highest === null || day.spent > highest.spent)) highest = day;
  }
  return { total: Math.round(total * 1e6) / 1e6, highest, daysWithSpend, daysOverLimit };
}
