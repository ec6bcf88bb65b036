import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { stopSupervising, supervise, type SupervisedChild, type Supervisor } from './supervisor';

/** A real child process that runs until it is killed. */
function sleeper(): SupervisedChild & { alive(): boolean } {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1e6)'], { stdio: 'ignore' });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    pid: child.pid!,
    exited,
    alive: () => child.exitCode === null && child.signalCode === null,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

function recordingLogger() {
  const lines: Array<{ level: string; message: string; detail: unknown }> = [];
  const at = (level: string) => (detail: unknown, message?: string) => void lines.push({ level, message: message ?? String(detail), detail });
  return { logger: { info: at('info'), warn: at('warn'), error: at('error') }, lines };
}

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const supervisors: Array<Supervisor<SupervisedChild>> = [];
afterEach(async () => {
  await Promise.all(supervisors.splice(0).map((supervisor) => supervisor.stop()));
});

describe('supervise', () => {
  it('restarts a child killed with SIGKILL, says restarting until it is back, and logs the cause', async () => {
    const { logger, lines } = recordingLogger();
    const started: Array<ReturnType<typeof sleeper>> = [];
    const supervisor = await supervise({ name: 'test child', logger, initialBackoffMs: 50, start: async () => started[started.push(sleeper()) - 1]! });
    supervisors.push(supervisor);
    const first = supervisor.current()!;
    expect(supervisor.state()).toBe('running');

    process.kill(first.pid, 'SIGKILL');
    await first.exited;
    await until(() => supervisor.state() !== 'running' || supervisor.current() !== first);
    await until(() => supervisor.state() === 'running');

    const second = supervisor.current()!;
    expect(second.pid).not.toBe(first.pid);
    expect(started[1]!.alive()).toBe(true);
    expect(supervisor.restarts()).toBe(1);
    expect(lines.map((line) => line.message)).toEqual([
      `test child exited unexpectedly (pid ${first.pid}, SIGKILL); restarting it in 50 ms`,
      `test child restarted (pid ${second.pid}) after it exited unexpectedly (pid ${first.pid}, SIGKILL)`,
    ]);
  });

  it('reports restarting from the moment the child is gone', async () => {
    const { logger } = recordingLogger();
    const supervisor = await supervise({ name: 'test child', logger, initialBackoffMs: 5_000, start: async () => sleeper() });
    supervisors.push(supervisor);
    const first = supervisor.current()!;
    process.kill(first.pid, 'SIGKILL');
    await first.exited;
    await until(() => supervisor.state() === 'restarting');
    expect(supervisor.current()).toBeUndefined();
  });

  it('retries a restart that fails, then gives up after its limit without throwing', async () => {
    const { logger, lines } = recordingLogger();
    let starts = 0;
    const supervisor = await supervise({
      name: 'test child',
      logger,
      initialBackoffMs: 10,
      maxRestarts: 3,
      start: async () => {
        starts += 1;
        if (starts > 1) throw new Error('port in use');
        return sleeper();
      },
    });
    supervisors.push(supervisor);
    const pid = supervisor.current()!.pid;
    process.kill(pid, 'SIGKILL');
    await until(() => supervisor.state() === 'gave up');
    expect(starts).toBe(4); // the first start and three restarts
    expect(supervisor.current()).toBeUndefined();
    expect(lines.filter((line) => line.message === 'test child did not start again')).toHaveLength(3);
    expect(lines.filter((line) => line.level === 'warn').map((line) => line.message)).toEqual([
      `test child exited unexpectedly (pid ${pid}, SIGKILL); restarting it in 10 ms`,
      `test child did not start again (1 attempt) after it exited unexpectedly (pid ${pid}, SIGKILL); restarting it in 20 ms`,
      `test child did not start again (2 attempts) after it exited unexpectedly (pid ${pid}, SIGKILL); restarting it in 40 ms`,
    ]);
    expect(lines.at(-1)).toMatchObject({
      level: 'error',
      message: `test child did not start again (3 attempts) after it exited unexpectedly (pid ${pid}, SIGKILL); not restarting it again: 3 restarts within 600 s`,
    });
  });

  it('doubles the back-off for each restart in the window', async () => {
    const { logger, lines } = recordingLogger();
    const supervisor = await supervise({ name: 'test child', logger, initialBackoffMs: 20, start: async () => sleeper() });
    supervisors.push(supervisor);
    for (let kill = 1; kill <= 3; kill++) {
      const child = supervisor.current()!;
      process.kill(child.pid, 'SIGKILL');
      await until(() => supervisor.restarts() === kill);
    }
    const delays = lines.filter((line) => line.level === 'warn').map((line) => (line.detail as { delayMs: number }).delayMs);
    expect(delays).toEqual([20, 40, 80]);
  });

  it('runs afterRestart before the child counts as running again, and retries when it fails', async () => {
    const { logger } = recordingLogger();
    const calls: string[] = [];
    let failOnce = true;
    const supervisor = await supervise({
      name: 'test child',
      logger,
      initialBackoffMs: 10,
      start: async () => sleeper(),
      async afterRestart(child) {
        calls.push(`after ${child.pid}`);
        if (failOnce) {
          failOnce = false;
          throw new Error('contracts missing');
        }
      },
    });
    supervisors.push(supervisor);
    process.kill(supervisor.current()!.pid, 'SIGKILL');
    await until(() => supervisor.state() === 'running' && supervisor.restarts() === 1);
    expect(calls).toHaveLength(2);
    expect(calls[1]).toBe(`after ${supervisor.current()!.pid}`);
  });

  it('once the process is shutting down, a child that exits is neither restarted nor reported, and one still running is stopped by stop()', async () => {
    const { logger, lines } = recordingLogger();
    let starts = 0;
    const start = async () => {
      starts += 1;
      return sleeper();
    };
    const exiting = await supervise({ name: 'exiting child', logger, initialBackoffMs: 10, start });
    const running = await supervise({ name: 'running child', logger, initialBackoffMs: 10, start });
    supervisors.push(exiting, running);
    const runningChild = running.current() as ReturnType<typeof sleeper>;

    stopSupervising();
    // As a terminal's Ctrl-C reaching the child itself would.
    const gone = exiting.current()!;
    process.kill(gone.pid, 'SIGINT');
    await gone.exited;
    await until(() => exiting.state() === 'stopped');
    await new Promise((resolve) => setTimeout(resolve, 100));

    expect(starts).toBe(2);
    expect(lines.filter((line) => line.level !== 'info')).toEqual([]);
    expect(lines.map((line) => line.message)).toEqual([`exiting child exited (pid ${gone.pid}, SIGINT) while the product stops`]);
    expect(runningChild.alive()).toBe(true);
    await running.stop();
    expect(runningChild.alive()).toBe(false);
  });

  it('cancels a restart waiting for its back-off when the process starts shutting down', async () => {
    const { logger } = recordingLogger();
    let starts = 0;
    const supervisor = await supervise({
      name: 'test child',
      logger,
      initialBackoffMs: 200,
      start: async () => {
        starts += 1;
        return sleeper();
      },
    });
    supervisors.push(supervisor);
    process.kill(supervisor.current()!.pid, 'SIGKILL');
    await until(() => supervisor.state() === 'restarting');
    stopSupervising();
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(starts).toBe(1);
    expect(supervisor.state()).toBe('stopped');
  });

  it('stops the child for good: no restart follows', async () => {
    const { logger } = recordingLogger();
    let starts = 0;
    const child = sleeper();
    const supervisor = await supervise({
      name: 'test child',
      logger,
      initialBackoffMs: 10,
      start: async () => {
        starts += 1;
        return starts === 1 ? child : sleeper();
      },
    });
    await supervisor.stop();
    expect(child.alive()).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(starts).toBe(1);
    expect(supervisor.state()).toBe('stopped');
  });
});
