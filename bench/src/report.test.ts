import { describe, expect, it } from 'vitest';
import { evaluate, formatDetails, formatNumber, formatTable, percentile, TARGETS, targetText, toResults, type Machine, type Measurement } from './report';

const latency: Measurement = {
  name: 'one ledger transfer (fundAgent), p50',
  value: 12,
  unit: 'ms',
  floor: 4,
  floorName: 'bare-SQL double-entry transfer',
  target: { of: 'ratio', op: '<=', bound: 2 },
};
const rate: Measurement = {
  name: 'burst of 100 payments',
  value: 6,
  unit: 'payments/s',
  floor: 10,
  floorName: '100 one-activity workflows at once',
  target: { of: 'ratio', op: '>=', bound: 0.5 },
};
const p99: Measurement = { name: 'GET /balance p99, 200 req/s paced', value: 7.5, unit: 'ms', floor: null, floorName: null, target: { of: 'value', op: '<=', bound: 10 } };
const bursty: Measurement = { ...p99, name: 'GET /balance p99, 200 req/s bursty', value: 44, target: { of: 'report' } };
const owners: Measurement = {
  name: '16 owners paying at once',
  value: 10.8,
  unit: 'payments/s',
  floor: 36.5,
  floorName: '16 clients running empty workflows',
  target: { of: 'ratio', op: '>=', bound: 0.7 },
};
const lcp: Measurement = { name: 'landing page LCP', value: 480, unit: 'ms', floor: 120, floorName: "the empty app's LCP", target: { of: 'report' } };
const machine: Machine = { cpu: 'Test CPU', cores: 2, ramGb: 8, node: 'v20.19.0', postgres: '15.8', os: 'Linux 6.1', date: '2026-01-01T00:00:00.000Z' };

describe('evaluate', () => {
  it('divides the figure by its floor and misses a latency target above the bound', () => {
    expect(evaluate(latency)).toMatchObject({ ratio: 3, met: false });
    expect(evaluate({ ...latency, value: 8 })).toMatchObject({ ratio: 2, met: true });
  });

  it('meets a rate target when the figure is at least the bound times the floor', () => {
    expect(evaluate(rate)).toMatchObject({ ratio: 0.6, met: true });
    expect(evaluate({ ...rate, value: 4 })).toMatchObject({ ratio: 0.4, met: false });
  });

  it('judges a value target on the figure itself, with no floor and no ratio', () => {
    expect(evaluate(p99)).toMatchObject({ ratio: null, met: true });
    expect(evaluate({ ...p99, value: 10.1 }).met).toBe(false);
  });

  it('judges the paced p99 on its value and leaves the bursty figure beside it unjudged', () => {
    expect([p99, bursty].map(evaluate).map((row) => row.met)).toEqual([true, null]);
    expect(evaluate({ ...p99, value: 12 }).met).toBe(false);
  });

  it('judges payments against the empty workflows of the same run: at least 0.7 times their rate', () => {
    expect(evaluate(owners).met).toBe(false);
    expect(evaluate(owners).ratio).toBeCloseTo(0.296, 3);
    expect(evaluate({ ...owners, value: 25.55 })).toMatchObject({ met: true });
    expect(evaluate({ ...owners, value: 25.5 })).toMatchObject({ met: false });
  });

  it('leaves a report-only row unjudged but still gives its ratio', () => {
    expect(evaluate(lcp)).toMatchObject({ ratio: 4, met: null });
  });

  it('cannot judge a ratio target without a floor', () => {
    expect(evaluate({ ...latency, floor: null })).toMatchObject({ ratio: null, met: null });
    expect(evaluate({ ...latency, floor: 0 })).toMatchObject({ ratio: null, met: null });
  });
});

describe('TARGETS', () => {
  /** A row of `value` against `floor` (or none) judged by `target`. */
  const met = (target: Measurement['target'], value: number, floor: number | null = 100) =>
    evaluate({ name: 'row', value, unit: 'ms', floor, floorName: floor === null ? null : 'floor', target }).met;

  it("holds issue 41's bounds on a paid call's latency: 1.3x the official client on PostgreSQL, 1.5x on PGlite", () => {
    expect([met(TARGETS.x402Exact.postgres, 130), met(TARGETS.x402Exact.postgres, 131)]).toEqual([true, false]);
    expect([met(TARGETS.x402Exact.pglite, 150), met(TARGETS.x402Exact.pglite, 151)]).toEqual([true, false]);
    expect([met(TARGETS.x402Upto, 150), met(TARGETS.x402Upto, 151)]).toEqual([true, false]);
    expect([met(TARGETS.x402Channel, 150), met(TARGETS.x402Channel, 151)]).toEqual([true, false]);
  });

  it("holds issue 41's bounds on CPU: 2.5x the official client's per paid call, 1 ms (PostgreSQL) and 2 ms (PGlite) per GET /balance", () => {
    expect([met(TARGETS.cpuPerPaidCall, 82.5, 33), met(TARGETS.cpuPerPaidCall, 83, 33)]).toEqual([true, false]);
    expect([met(TARGETS.balanceCpu.postgres, 1, null), met(TARGETS.balanceCpu.postgres, 1.01, null)]).toEqual([true, false]);
    expect([met(TARGETS.balanceCpu.pglite, 2, null), met(TARGETS.balanceCpu.pglite, 2.01, null)]).toEqual([true, false]);
    expect(targetText(TARGETS.balanceCpu.postgres, 'ms')).toBe('≤ 1 ms');
  });

  it("holds issue 41's throughput bounds: the x402 burst at 0.5x the official client's, 16 owners at 0.7x the empty workflows", () => {
    expect([met(TARGETS.x402Burst, 50), met(TARGETS.x402Burst, 49)]).toEqual([true, false]);
    expect([met(TARGETS.owners, 70), met(TARGETS.owners, 69)]).toEqual([true, false]);
  });

  it("holds issue 41's other bounds: a ledger payment 1.3x, GET /balance p99 10 ms, the landing page's LCP 2x", () => {
    expect([met(TARGETS.ledgerPayment, 130), met(TARGETS.ledgerPayment, 131)]).toEqual([true, false]);
    expect([met(TARGETS.balanceP99, 10, null), met(TARGETS.balanceP99, 10.5, null)]).toEqual([true, false]);
    expect([met(TARGETS.landingLcp, 200), met(TARGETS.landingLcp, 201)]).toEqual([true, false]);
    expect(met(TARGETS.report, 1000)).toBeNull();
  });
});

describe('targetText', () => {
  it('states ratio targets against the floor and value targets in the unit', () => {
    expect(targetText(latency.target, 'ms')).toBe('≤ 2x floor');
    expect(targetText(rate.target, 'payments/s')).toBe('≥ 0.5x floor');
    expect(targetText(p99.target, 'ms')).toBe('≤ 10 ms');
    expect(targetText(owners.target, 'payments/s')).toBe('≥ 0.7x floor');
    expect(targetText(lcp.target, 'ms')).toBe('report');
  });
});

describe('formatTable', () => {
  const table = formatTable([latency, rate, p99, lcp].map(evaluate));
  const lines = table.split('\n');

  it('prints a Markdown table: a header, a rule and one line per row, all the same width', () => {
    expect(lines).toHaveLength(6);
    expect(lines[0]).toMatch(/^\| benchmark +\| +figure \| +floor \| floor is +\| +ratio \| target +\| met \|$/);
    expect(lines[1]).toMatch(/^\|-+\|-+:\|-+:\|-+\|-+:\|-+\|-+\|$/);
    expect(new Set(lines.map((line) => line.length)).size).toBe(1);
  });

  it('shows each figure beside its floor, the ratio, the target and whether it is met', () => {
    expect(lines[2]).toMatch(/one ledger transfer \(fundAgent\), p50 +\| +12\.0 ms \| +4\.00 ms \| bare-SQL double-entry transfer +\| +3\.00x \| ≤ 2x floor +\| no +\|/);
    expect(lines[3]).toContain('| 0.60x |');
    expect(lines[3]).toMatch(/\| yes +\|$/);
  });

  it('uses a dash where there is no floor and for a report-only row', () => {
    expect(lines[4]).toMatch(/\| +— \| — +\| +— \| ≤ 10 ms +\| yes +\|$/);
    expect(lines[5]).toMatch(/\| report +\| — +\|$/);
  });
});

describe('formatDetails', () => {
  it("prints each row's detail under its name and skips the rows without one", () => {
    expect(formatDetails([{ ...latency, detail: '50 each' }, p99, { ...lcp, detail: '5 loads' }])).toBe(
      '  one ledger transfer (fundAgent), p50: 50 each\n  landing page LCP: 5 loads',
    );
  });

  it('does not repeat the detail of the row before', () => {
    expect(formatDetails([{ ...p99, detail: '2,000 requests' }, { ...bursty, detail: '2,000 requests' }])).toBe(
      '  GET /balance p99, 200 req/s paced: 2,000 requests\n  GET /balance p99, 200 req/s bursty: as above',
    );
  });
});

describe('formatNumber', () => {
  it('keeps two decimals below 10 and one above', () => {
    expect(formatNumber(1.844)).toBe('1.84');
    expect(formatNumber(368.24)).toBe('368.2');
  });
});

describe('toResults', () => {
  it('holds the machine and, per row, name, value, unit, floor, floor name, ratio, target and met', () => {
    const results = toResults(machine, [{ ...latency, value: 12.34567, detail: '50 each' }, p99, lcp].map(evaluate));
    expect(results.command).toBe('npm run bench');
    expect(results.machine).toEqual(machine);
    expect(results.rows[0]).toEqual({
      name: 'one ledger transfer (fundAgent), p50',
      value: 12.346,
      unit: 'ms',
      floor: 4,
      floorName: 'bare-SQL double-entry transfer',
      ratio: 3.086,
      target: { text: '≤ 2x floor', of: 'ratio', op: '<=', bound: 2 },
      met: false,
      detail: '50 each',
    });
    expect(results.rows[1]).toMatchObject({ floor: null, floorName: null, ratio: null, target: { text: '≤ 10 ms', of: 'value' }, met: true });
    expect(results.rows[2]).toMatchObject({ target: { text: 'report', of: 'report' }, met: null });
    expect(results.rows[2]).not.toHaveProperty('detail');
    expect(JSON.parse(JSON.stringify(results))).toEqual(results);
  });
});

describe('percentile', () => {
  it('takes the nearest rank, whatever the order of the values', () => {
    expect(percentile([5, 1, 4, 2, 3], 0.5)).toBe(3);
    expect(percentile([1, 2, 3, 4], 0.5)).toBe(2);
    expect(percentile(Array.from({ length: 100 }, (_, i) => 100 - i), 0.99)).toBe(99);
    expect(percentile([7], 0.99)).toBe(7);
  });

  it('refuses an empty list', () => {
    expect(() => percentile([], 0.5)).toThrow();
  });
});
