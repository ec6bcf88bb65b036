/**
 * The pure half of `npm run bench`: judging each figure against its target, the one table it
 * prints and the shape of bench/results/latest.json. No I/O here, so it is unit-tested.
 *
 * A row's ratio is always its figure divided by its floor, in the figure's own unit, so for a
 * latency "2x" means twice as slow and for a rate "0.5x" half as fast. Targets are reported,
 * never asserted: a missed target is a "no" in the table, not a failed run.
 */

export type Comparison = '<=' | '>=';

/**
 * What a figure should reach: a bound on its ratio to the floor, a bound on the figure itself
 * (in its unit), or nothing (reported for the record).
 */
export type Target = { of: 'ratio' | 'value'; op: Comparison; bound: number } | { of: 'report' };

/** One figure as a benchmark measured it, beside the floor measured in the same run. */
export interface Measurement {
  name: string;
  value: number;
  unit: string;
  /** The same work done the cheapest way, in the same unit; null when there is none. */
  floor: number | null;
  floorName: string | null;
  target: Target;
  /** Sample sizes and secondary figures (p95, the other side's spread...), for the JSON only. */
  detail?: string;
}

export interface Row extends Measurement {
  /** value / floor; null without a floor. */
  ratio: number | null;
  /** Whether the target is met; null for report-only rows (or a ratio target without a floor). */
  met: boolean | null;
}

export interface Machine {
  cpu: string;
  cores: number;
  ramGb: number;
  node: string;
  postgres: string;
  os: string;
  /** ISO 8601, when the run finished. */
  date: string;
}

export interface Results {
  command: string;
  machine: Machine;
  rows: Array<{
    name: string;
    value: number;
    unit: string;
    floor: number | null;
    floorName: string | null;
    ratio: number | null;
    target: { text: string; of: Target['of']; op?: Comparison; bound?: number };
    met: boolean | null;
    detail?: string;
  }>;
}

type Bound = Exclude<Target, { of: 'report' }>;
const atMost = (of: Bound['of'], bound: number): Bound => ({ of, op: '<=', bound });
const atLeast = (of: Bound['of'], bound: number): Bound => ({ of, op: '>=', bound });

/**
 * Every row's target, in one place. Issue 41's for the rows it names (a paid call's latency, CPU
 * and throughput, a ledger payment, 16 owners, GET /balance, the landing page's paint); the
 * earlier issues' for the others. A target keyed by database differs between PostgreSQL and the
 * embedded PGlite, which runs the database on the server's own event loop.
 */
export const TARGETS = {
  transfer: atMost('ratio', 2),
  transferBurst: atLeast('ratio', 0.5),
  ledgerPayment: atMost('ratio', 1.3),
  paymentBurst: atLeast('ratio', 0.5),
  owners: atLeast('ratio', 0.7),
  x402Exact: { postgres: atMost('ratio', 1.3), pglite: atMost('ratio', 1.5) },
  x402Burst: atLeast('ratio', 0.5),
  /** All of Purser's processes (its workflow included) against the official client's, per paid call. */
  cpuPerPaidCall: atMost('ratio', 2.5),
  x402Upto: atMost('ratio', 1.5),
  x402Channel: atMost('ratio', 1.5),
  mppCharge: atMost('ratio', 1.5),
  /** Paced; the bursty rows are reported. */
  balanceP99: atMost('value', 10),
  /** The server process's CPU per request, in ms. */
  balanceCpu: { postgres: atMost('value', 1), pglite: atMost('value', 2) },
  /** Three round trips (the page's ids, its rows, their approvals) against the floor's one. */
  intentListPage: atMost('ratio', 4),
  /** kB gzip. */
  landingJs: atMost('value', 250),
  /** The pre-rendered landing page paints within twice the empty app's time (issue 27). */
  landingLcp: atMost('ratio', 2),
  report: { of: 'report' },
} as const satisfies Record<string, Target | Record<'postgres' | 'pglite', Target>>;

export function evaluate(measurement: Measurement): Row {
  const ratio = measurement.floor === null || measurement.floor === 0 ? null : measurement.value / measurement.floor;
  const { target } = measurement;
  let met: boolean | null = null;
  if (target.of !== 'report') {
    const subject = target.of === 'ratio' ? ratio : measurement.value;
    met = subject === null ? null : target.op === '<=' ? subject <= target.bound : subject >= target.bound;
  }
  return { ...measurement, ratio, met };
}

export function targetText(target: Target, unit: string): string {
  if (target.of === 'report') return 'report';
  const op = target.op === '<=' ? '≤' : '≥';
  return target.of === 'ratio' ? `${op} ${target.bound}x floor` : `${op} ${target.bound} ${unit}`;
}

/** Two decimals below 10, one above: 1.84 ms, 368.2 ms, 248.8 kB. */
export function formatNumber(value: number): string {
  return Math.abs(value) < 10 ? value.toFixed(2) : value.toFixed(1);
}

const metText = (met: boolean | null) => (met === null ? '—' : met ? 'yes' : 'no');

/** The run's one table, as Markdown whose columns also line up in a terminal. */
export function formatTable(rows: Row[]): string {
  const header = ['benchmark', 'figure', 'floor', 'floor is', 'ratio', 'target', 'met'];
  const cells = rows.map((row) => [
    row.name,
    `${formatNumber(row.value)} ${row.unit}`,
    row.floor === null ? '—' : `${formatNumber(row.floor)} ${row.unit}`,
    row.floorName ?? '—',
    row.ratio === null ? '—' : `${row.ratio.toFixed(2)}x`,
    targetText(row.target, row.unit),
    metText(row.met),
  ]);
  // Numbers read best right-aligned; words left-aligned.
  const right = [false, true, true, false, true, false, false];
  const widths = header.map((title, column) => Math.max(title.length, ...cells.map((line) => line[column]!.length)));
  const line = (values: string[]) =>
    `| ${values.map((value, column) => (right[column] ? value.padStart(widths[column]!) : value.padEnd(widths[column]!))).join(' | ')} |`;
  const rule = `|${widths.map((width, column) => (right[column] ? `${'-'.repeat(width + 1)}:` : '-'.repeat(width + 2))).join('|')}|`;
  return [line(header), rule, ...cells.map(line)].join('\n');
}

/**
 * Each row's detail under its name, for the lines after the table; a detail the row before gave
 * too (the rows of one measurement share it) is not repeated.
 */
export function formatDetails(rows: Measurement[]): string {
  return rows
    .filter((row) => row.detail)
    .map((row, i, withDetail) => `  ${row.name}: ${i > 0 && withDetail[i - 1]!.detail === row.detail ? 'as above' : row.detail}`)
    .join('\n');
}

export function formatMachine(machine: Machine): string {
  return `${machine.cpu}, ${machine.cores} cores, ${machine.ramGb} GB RAM; ${machine.os}; Node ${machine.node}; PostgreSQL ${machine.postgres}; ${machine.date}`;
}

/** What bench/results/latest.json holds. */
export function toResults(machine: Machine, rows: Row[]): Results {
  return {
    command: 'npm run bench',
    machine,
    rows: rows.map((row) => ({
      name: row.name,
      value: round(row.value),
      unit: row.unit,
      floor: row.floor === null ? null : round(row.floor),
      floorName: row.floorName,
      ratio: row.ratio === null ? null : round(row.ratio),
      target: { text: targetText(row.target, row.unit), ...row.target },
      met: row.met,
      ...(row.detail ? { detail: row.detail } : {}),
    })),
  };
}

const round = (value: number) => Math.round(value * 1000) / 1000;

/** Nearest-rank percentile (p in 0..1) of a non-empty list. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) throw new Error('percentile of no values');
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}
