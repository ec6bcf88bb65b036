/**
 * Runs the payments worker, and a new one whenever it stops on its own: the SDK ends a worker
 * on errors it cannot recover from (the Temporal frontend unreachable for longer than its
 * retries, a restarted server that forgot its pollers). After a back-off the same task queue is
 * polled again, so a worker process outlives an outage of Temporal without a person.
 */
import type { Worker } from '@temporalio/worker';
import type { Logger } from './logger';

export interface RunningWorker {
  /** The worker now, or undefined between a failure and its replacement. */
  current(): Worker | undefined;
  /** Shuts the worker down for good and waits for its in-flight tasks. */
  stop(): Promise<void>;
}

const INITIAL_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 15_000;

export async function keepWorkerRunning(create: () => Promise<Worker>, logger: Pick<Logger, 'info' | 'error'>): Promise<RunningWorker> {
  let worker: Worker | undefined = await create();
  let stopping = false;
  let wake: (() => void) | undefined;
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const loop = (async () => {
    for (let failures = 0; ; ) {
      if (worker) {
        try {
          await worker.run();
          if (stopping) return;
          logger.error('payments worker stopped on its own');
        } catch (error) {
          if (stopping) return;
          logger.error({ err: error }, 'payments worker stopped unexpectedly');
        }
        worker = undefined;
      }
      failures += 1;
      await pause(Math.min(MAX_BACKOFF_MS, INITIAL_BACKOFF_MS * 2 ** (failures - 1)));
      if (stopping) return;
      try {
        const created = await create();
        if (stopping) {
          // stop() came while it was being created: run it only to shut it down at once.
          await created.runUntil(Promise.resolve());
          return;
        }
        worker = created;
        logger.info({ failures }, 'payments worker started again');
        failures = 0;
      } catch (error) {
        logger.error({ err: error }, 'payments worker could not start again; retrying');
      }
    }
  })();

  return {
    current: () => worker,
    async stop() {
      stopping = true;
      wake?.();
      if (worker?.getState() === 'RUNNING') worker.shutdown();
      await loop;
    },
  };
}
