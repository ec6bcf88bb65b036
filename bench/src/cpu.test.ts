import { describe, expect, it } from 'vitest';
import { cpuPerUnit, cpuTotal, programOf, type CpuSpent } from './cpu';

const SELF = 4000;

describe('programOf', () => {
  it("splits this process by thread: the main thread, Temporal's Rust core and the unnamed rest", () => {
    expect(programOf({ id: SELF, ppid: 1, command: 'node', thread: true }, SELF, {})).toBe('node main thread');
    expect(programOf({ id: 4010, ppid: 1, command: 'tokio-runtime-w', thread: true }, SELF, {})).toBe('node Temporal core');
    expect(programOf({ id: 4011, ppid: 1, command: 'workflow-proces', thread: true }, SELF, {})).toBe('node Temporal core');
    expect(programOf({ id: 4012, ppid: 1, command: 'node', thread: true }, SELF, {})).toBe('node other threads (workflow code, GC, libuv)');
  });

  it("counts the Temporal dev server and anvil it started, not another test's, nor its other children", () => {
    expect(programOf({ id: 5000, ppid: SELF, command: 'temporal' }, SELF, {})).toBe('Temporal dev server');
    expect(programOf({ id: 5001, ppid: SELF, command: 'anvil' }, SELF, {})).toBe('anvil');
    expect(programOf({ id: 5002, ppid: 77, command: 'temporal' }, SELF, {})).toBeNull();
    expect(programOf({ id: 5003, ppid: 77, command: 'anvil' }, SELF, {})).toBeNull();
    expect(programOf({ id: 5004, ppid: SELF, command: 'esbuild' }, SELF, {})).toBeNull();
  });

  it("counts the backends of the bench's database only, and none on PGlite", () => {
    const backend = (database: string) => ({ id: 6000, ppid: 2245, command: 'postgres', cmdline: `postgres: 15/main: postgres ${database} 127.0.0.1(42840) idle ` });
    const scope = { database: 'purser_test_cd6f3de5afcb' };
    expect(programOf(backend('purser_test_cd6f3de5afcb'), SELF, scope)).toBe('PostgreSQL backends');
    expect(programOf(backend('purser_test_0123456789ab'), SELF, scope)).toBeNull();
    expect(programOf({ id: 2249, ppid: 2245, command: 'postgres', cmdline: 'postgres: 15/main: walwriter ' }, SELF, scope)).toBeNull();
    expect(programOf(backend('purser_test_cd6f3de5afcb'), SELF, {})).toBeNull();
  });
});

describe('cpuPerUnit', () => {
  const spent: CpuSpent = {
    programs: [
      ['node main thread', 1500],
      ['PostgreSQL backends', 400],
      ['anvil', 5],
    ],
    elsewhere: { ms: 120, top: 'kworker/u8:1' },
  };

  it("totals Purser's programs per unit of work and leaves the rest of the machine out of it", () => {
    expect(cpuTotal(spent, 10)).toBeCloseTo(190.5, 5);
    expect(cpuPerUnit(spent, 10)).toBe('191 ms: node main thread 150 ms, PostgreSQL backends 40 ms (other processes of the machine, not counted: 12 ms, most kworker/u8:1)');
  });

  it('says so when no program spent a millisecond per unit', () => {
    expect(cpuPerUnit({ programs: [], elsewhere: { ms: 0, top: null } }, 5)).toBe('0 ms: none above 1 ms');
  });
});
