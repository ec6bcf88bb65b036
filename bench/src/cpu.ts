/**
 * CPU time by program (Linux /proc): what each process of the machine (this Node process, the
 * PostgreSQL backends, the Temporal dev server, anvil) spent while a measured task ran. A burst
 * that stops scaling on this 2-core machine shows here which program its calls pay for.
 */
import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

type Snapshot = Map<number, { command: string; ticks: number }>;

/** pid (comm) state ppid ... utime stime: the command may hold spaces and parentheses. */
function readStat(path: string): { command: string; ticks: number } | null {
  try {
    const stat = readFileSync(path, 'utf8');
    const close = stat.lastIndexOf(')');
    const fields = stat.slice(close + 2).split(' ');
    return { command: stat.slice(stat.indexOf('(') + 1, close), ticks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return null; // gone between the listing and the read
  }
}

/**
 * Every process of the machine, except this one, which is split into its threads ("node:" and
 * the thread's name: the main thread, Temporal's Rust core, workflow threads, the GC's helpers).
 */
function snapshot(): Snapshot {
  const processes: Snapshot = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    const stat = readStat(`/proc/${entry}/stat`);
    if (stat) processes.set(Number(entry), stat);
  }
  for (const thread of readdirSync('/proc/self/task')) {
    const stat = readStat(`/proc/self/task/${thread}/stat`);
    if (stat) processes.set(Number(thread), { command: `node:${stat.command}`, ticks: stat.ticks });
  }
  return processes;
}

/**
 * Runs `task` and answers the CPU milliseconds each program spent meanwhile, most first. A
 * process that ended during the task is not counted (PostgreSQL's pooled backends stay).
 */
export async function cpuDuring<T>(task: () => Promise<T>): Promise<{ result: T; cpuMs: Array<[string, number]> }> {
  const before = snapshot();
  const result = await task();
  const byCommand = new Map<string, number>();
  for (const [pid, { command, ticks }] of snapshot()) {
    const spent = ticks - (before.get(pid)?.command === command ? before.get(pid)!.ticks : 0);
    if (spent > 0) byCommand.set(command, (byCommand.get(command) ?? 0) + (spent * 1000) / TICKS_PER_SECOND);
  }
  return { result, cpuMs: [...byCommand].sort((a, b) => b[1] - a[1]) };
}

/** "node 41 ms, postgres 30 ms, ..." per unit of work, the programs that spent at least 1 ms. */
export function cpuPerUnit(cpuMs: Array<[string, number]>, units: number): string {
  return cpuMs
    .map(([command, ms]) => [command, ms / units] as const)
    .filter(([, ms]) => ms >= 1)
    .map(([command, ms]) => `${command} ${Math.round(ms)} ms`)
    .join(', ');
}
