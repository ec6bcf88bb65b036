/**
 * CPU time by program (Linux /proc): what each of Purser's processes (this Node process by
 * thread, the PostgreSQL backends of the bench's database, the Temporal dev server, anvil) spent
 * while a measured task ran. A paid call that costs more than the official client's shows here
 * which program it pays; a burst that stops scaling on this 2-core machine shows which program
 * its calls wait for.
 *
 * The machine is shared (other tests, the PostgreSQL server's other databases, kernel threads),
 * so only the processes the bench started count; what every other process spent meanwhile is
 * given as one figure beside them, to say how busy the machine was, and counted in no total.
 */
import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** Which processes are the bench's, besides this one and its children. */
export interface CpuScope {
  /** The PostgreSQL database whose backends count (none on PGlite: it runs in this process). */
  database?: string;
}

/** What one process or thread is, as /proc tells it. */
export interface Task {
  /** The pid, or for one of this process's threads its thread id. */
  id: number;
  ppid: number;
  command: string;
  /** Set for this process's threads. */
  thread?: true;
  /** The command line, read only for PostgreSQL's processes (a backend names its database there). */
  cmdline?: string;
}

/** The CPU milliseconds spent during a task: by program for Purser's, and everything else together. */
export interface CpuSpent {
  /** Purser's programs, most first. */
  programs: Array<[string, number]>;
  /** Every other process of the machine, together, and the one that spent most. */
  elsewhere: { ms: number; top: string | null };
}

/**
 * The program a process or thread counts under, or null when it is not Purser's: this
 * process by thread, its children by name (the Temporal dev server, anvil), and the backends of
 * the bench's database. This process's threads: the main thread (the HTTP server, Prisma, the
 * worker's activities, the official client and the sandbox seller); the Temporal SDK's Rust core
 * (its tokio runtime and workflow-processing threads, which Linux names); and the threads Node
 * leaves unnamed (the worker threads that run workflow code, V8's garbage collector and
 * compiler, libuv's pool).
 */
export function programOf(task: Task, self: number, scope: CpuScope): string | null {
  if (task.thread) {
    if (task.id === self) return 'node main thread';
    // A thread's name is cut to 15 characters: "tokio-runtime-w", "workflow-proces".
    if (task.command.startsWith('tokio-runtime') || task.command.startsWith('workflow-proces')) return 'node Temporal core';
    return task.command === 'node' ? 'node other threads (workflow code, GC, libuv)' : `node ${task.command}`;
  }
  // The bench's other children (tsx's esbuild, GET /balance's load generators) are not Purser's.
  if (task.ppid === self && task.command === 'temporal') return 'Temporal dev server';
  if (task.ppid === self && task.command === 'anvil') return 'anvil';
  // "postgres: 15/main: user database 127.0.0.1(port) state": a backend of the bench's database.
  if (scope.database && task.command === 'postgres' && task.cmdline?.split(/\s+/).includes(scope.database)) return 'PostgreSQL backends';
  return null;
}

type Snapshot = Map<number, { task: Task; ticks: number }>;

/** pid (comm) state ppid ... utime stime: the command may hold spaces and parentheses. */
function readStat(path: string): { command: string; ppid: number; ticks: number } | null {
  try {
    const stat = readFileSync(path, 'utf8');
    const close = stat.lastIndexOf(')');
    const fields = stat.slice(close + 2).split(' ');
    return { command: stat.slice(stat.indexOf('(') + 1, close), ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return null; // gone between the listing and the read
  }
}

function readCmdline(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return undefined;
  }
}

/** Every process of the machine, except this one, which is split into its threads. */
function snapshot(): Snapshot {
  const tasks: Snapshot = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    const stat = readStat(`/proc/${entry}/stat`);
    if (!stat) continue;
    const id = Number(entry);
    const cmdline = stat.command === 'postgres' ? readCmdline(id) : undefined;
    tasks.set(id, { task: { id, ppid: stat.ppid, command: stat.command, ...(cmdline ? { cmdline } : {}) }, ticks: stat.ticks });
  }
  for (const entry of readdirSync('/proc/self/task')) {
    const stat = readStat(`/proc/self/task/${entry}/stat`);
    if (stat) tasks.set(Number(entry), { task: { id: Number(entry), ppid: stat.ppid, command: stat.command, thread: true }, ticks: stat.ticks });
  }
  return tasks;
}

/**
 * Runs `task` and answers the CPU milliseconds each of Purser's programs spent meanwhile, and
 * the rest of the machine's. A process that ended during the task is not counted (PostgreSQL's
 * pooled backends stay); one that started during it counts from its start.
 */
export async function cpuDuring<T>(task: () => Promise<T>, scope: CpuScope): Promise<{ result: T; cpu: CpuSpent }> {
  const before = snapshot();
  const result = await task();
  const byProgram = new Map<string, number>();
  const elsewhere = new Map<string, number>();
  for (const [id, { task: now, ticks }] of snapshot()) {
    const earlier = before.get(id);
    const spent = ((ticks - (earlier?.task.command === now.command ? earlier.ticks : 0)) * 1000) / TICKS_PER_SECOND;
    if (spent <= 0) continue;
    const program = programOf(now, process.pid, scope);
    const into = program === null ? elsewhere : byProgram;
    const key = program ?? now.command;
    into.set(key, (into.get(key) ?? 0) + spent);
  }
  const others = [...elsewhere].sort((a, b) => b[1] - a[1]);
  return {
    result,
    cpu: {
      programs: [...byProgram].sort((a, b) => b[1] - a[1]),
      elsewhere: { ms: others.reduce((sum, [, ms]) => sum + ms, 0), top: others[0]?.[0] ?? null },
    },
  };
}

/** All of Purser's programs together, in ms per unit of work. */
export function cpuTotal(cpu: CpuSpent, units: number): number {
  return cpu.programs.reduce((sum, [, ms]) => sum + ms, 0) / units;
}

/**
 * "node main thread 41 ms, PostgreSQL backends 30 ms, ..." per unit of work (the programs that
 * spent at least 1 ms), then the rest of the machine's, counted in no total.
 */
export function cpuPerUnit(cpu: CpuSpent, units: number): string {
  const programs = cpu.programs
    .map(([program, ms]) => [program, ms / units] as const)
    .filter(([, ms]) => ms >= 1)
    .map(([program, ms]) => `${program} ${Math.round(ms)} ms`);
  const elsewhere = cpu.elsewhere.top ? ` (other processes of the machine, not counted: ${Math.round(cpu.elsewhere.ms / units)} ms, most ${cpu.elsewhere.top})` : '';
  return `${Math.round(cpuTotal(cpu, units))} ms: ${programs.join(', ') || 'none above 1 ms'}${elsewhere}`;
}
