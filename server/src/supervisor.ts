/**
 * Keeps an embedded child process running: the Temporal dev server and the sandbox chain that
 * `npm start` runs itself. When the child exits on its own, it is started again, on the same
 * ports and the same data, after a back-off that doubles with each restart in the window; each
 * restart is logged with its cause. Past `maxRestarts` within `windowMs` the supervisor gives up
 * and says so: the product stays up and reports the dependency down (/healthz) instead of
 * crashing, and the operator restarts it (docs/operations.md).
 *
 * Shutting down, the process first calls `stopSupervising()`, then stops its parts in order: from
 * that moment a child that exits is stopping with the product, not failing, so it is neither
 * restarted nor reported.
 */
import type { Logger } from './logger';

/** How a process ended: its exit code, or the signal that ended it, and the last it wrote. */
export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The tail of its output: logged with the exit, for the operator to read the cause. */
  output?: string;
}

export interface SupervisedChild {
  pid: number;
  /** Resolves when the process has ended, whether stopped or on its own. */
  exited: Promise<ChildExit>;
  stop(): Promise<void>;
}

/** `restarting` from the moment the child is seen gone until its replacement is ready. */
export type SupervisedState = 'running' | 'restarting' | 'gave up' | 'stopped';

export interface SupervisorOptions<T extends SupervisedChild> {
  /** For the log: 'temporal dev server', 'sandbox chain'. */
  name: string;
  /** Starts the child on the same ports and data every time; resolves once it serves. */
  start(): Promise<T>;
  /** Told the moment the child is seen gone, before any restart (e.g. to hold the chain's sends). */
  onExit?(): void;
  /** Runs after a restart, before the child counts as running again (e.g. the chain's journal replay). */
  afterRestart?(child: T): Promise<void>;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  /** First delay before a restart; doubled for each further restart in the window. */
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  /** Restarts (successful or not) allowed within `windowMs` before giving up. */
  maxRestarts?: number;
  windowMs?: number;
}

export interface Supervisor<T extends SupervisedChild> {
  /** The child serving now; undefined while restarting or after giving up. */
  current(): T | undefined;
  state(): SupervisedState;
  /** Restarts so far, since the product started. */
  restarts(): number;
  /** Stops the child for good: no restart follows. Idempotent. */
  stop(): Promise<void>;
}

export const SUPERVISOR_DEFAULTS = { initialBackoffMs: 250, maxBackoffMs: 10_000, maxRestarts: 10, windowMs: 10 * 60_000 } as const;

/** How each supervisor of this process still watching its child stops watching (see stopSupervising). */
const watchers = new Set<() => void>();

/**
 * The process is shutting down: no supervisor of this process restarts its child any more, nor
 * calls its exit unexpected. The children keep running until their own supervisor's stop(), so
 * the caller stops them in its order (the worker before the Temporal server and the chain it
 * talks to). Process-wide because a shutdown is: the chain's supervisor is inside the chain.
 */
export function stopSupervising(): void {
  for (const unwatch of [...watchers]) unwatch();
}

/** Starts the child (a failed first start throws, as before supervision) and keeps it running. */
export async function supervise<T extends SupervisedChild>(options: SupervisorOptions<T>): Promise<Supervisor<T>> {
  const { name, logger } = options;
  const initialBackoffMs = options.initialBackoffMs ?? SUPERVISOR_DEFAULTS.initialBackoffMs;
  const maxBackoffMs = options.maxBackoffMs ?? SUPERVISOR_DEFAULTS.maxBackoffMs;
  const maxRestarts = options.maxRestarts ?? SUPERVISOR_DEFAULTS.maxRestarts;
  const windowMs = options.windowMs ?? SUPERVISOR_DEFAULTS.windowMs;

  let child: T | undefined = await options.start();
  let state: SupervisedState = 'running';
  let restartCount = 0;
  /** When each restart attempt began, for the window. */
  const attempts: number[] = [];
  let timer: NodeJS.Timeout | undefined;
  /** A restart under way, so stop() can wait for it and stop what it started. */
  let restarting: Promise<void> | undefined;
  /** False once the process is shutting down (stopSupervising) or this supervisor stopped. */
  let watching = true;
  const unwatch = () => {
    watching = false;
    watchers.delete(unwatch);
    if (timer) {
      // A restart was waiting for its back-off: it will not come.
      clearTimeout(timer);
      timer = undefined;
      state = 'stopped';
    }
  };
  watchers.add(unwatch);

  const watch = (watched: T) => {
    void watched.exited.then((exit) => {
      if (state === 'stopped' || watched !== child) return;
      child = undefined;
      if (!watching) {
        state = 'stopped';
        logger.info({ child: name, pid: watched.pid }, `${name} exited (pid ${watched.pid}, ${exit.signal ?? `code ${exit.code}`}) while the product stops`);
        return;
      }
      state = 'restarting';
      options.onExit?.();
      scheduleRestart(`exited unexpectedly (pid ${watched.pid}, ${exit.signal ?? `code ${exit.code}`})`, 0, exit.output);
    });
  };

  /** `cause`: why the child is gone; `failedAttempts`: restarts tried for it in vain so far; `output`: its last words. */
  const scheduleRestart = (cause: string, failedAttempts = 0, output?: string) => {
    const now = Date.now();
    while (attempts.length > 0 && attempts[0]! <= now - windowMs) attempts.shift();
    const what = failedAttempts === 0 ? `${name} ${cause}` : `${name} did not start again (${failedAttempts} attempt${failedAttempts === 1 ? '' : 's'}) after it ${cause}`;
    if (attempts.length >= maxRestarts) {
      state = 'gave up';
      logger.error({ child: name, cause, output, restarts: attempts.length, windowMs }, `${what}; not restarting it again: ${attempts.length} restarts within ${windowMs / 1000} s`);
      return;
    }
    const delayMs = Math.min(maxBackoffMs, initialBackoffMs * 2 ** attempts.length);
    attempts.push(now + delayMs);
    logger.warn({ child: name, cause, output, delayMs, attempt: attempts.length }, `${what}; restarting it in ${delayMs} ms`);
    timer = setTimeout(() => {
      timer = undefined;
      restarting = restart(cause, failedAttempts).finally(() => (restarting = undefined));
    }, delayMs);
  };

  const restart = async (cause: string, failedAttempts: number) => {
    let started: T | undefined;
    try {
      started = await options.start();
      await options.afterRestart?.(started);
    } catch (error) {
      if (started) await started.stop().catch(() => {});
      if (state === 'stopped') return;
      if (!watching) {
        state = 'stopped';
        return;
      }
      logger.error({ child: name, err: error }, `${name} did not start again`);
      scheduleRestart(cause, failedAttempts + 1);
      return;
    }
    if (state === 'stopped') {
      await started.stop();
      return;
    }
    child = started;
    state = 'running';
    restartCount += 1;
    logger.info({ child: name, pid: started.pid, restarts: restartCount }, `${name} restarted (pid ${started.pid}) after it ${cause}`);
    // Kept when the product began stopping meanwhile: what still drains may need it; stop() ends it.
    watch(started);
  };

  watch(child);
  return {
    current: () => child,
    state: () => state,
    restarts: () => restartCount,
    async stop() {
      unwatch();
      if (state === 'stopped') return;
      state = 'stopped';
      await restarting;
      const running = child;
      child = undefined;
      await running?.stop();
    },
  };
}
