// The payments worker: polls the task queue and runs workflows and activities.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker, type NativeConnection } from '@temporalio/worker';
import type { Activities } from './activities';
import { TASK_QUEUE } from './constants';

/** Written by `npm run build -w @purser/workflows` (src/build-bundle.ts). */
export const WORKFLOW_BUNDLE_PATH = fileURLToPath(new URL('../dist/workflow-bundle.js', import.meta.url));
export const WORKFLOWS_PATH = fileURLToPath(new URL('./workflows/index.ts', import.meta.url));
const WORKFLOWS_DIR = fileURLToPath(new URL('./workflows/', import.meta.url));

export interface PaymentsWorkerOptions {
  connection: NativeConnection;
  namespace: string;
  activities: Activities;
  taskQueue?: string;
  log?: (message: string) => void;
}

/**
 * Creates (does not run) the worker. A prebuilt workflow bundle saves the seconds webpack
 * needs at startup; without one, or when it is older than the workflow sources, the worker
 * bundles `src/workflows` itself.
 */
export function createPaymentsWorker({ connection, namespace, activities, taskQueue = TASK_QUEUE, log = () => {} }: PaymentsWorkerOptions): Promise<Worker> {
  const useBundle = isBundleFresh();
  log(useBundle ? `worker uses the prebuilt workflow bundle ${WORKFLOW_BUNDLE_PATH}` : `worker bundles workflows from ${WORKFLOWS_PATH}`);
  return Worker.create({
    connection,
    namespace,
    taskQueue,
    activities,
    ...(useBundle ? { workflowBundle: { codePath: WORKFLOW_BUNDLE_PATH } } : { workflowsPath: WORKFLOWS_PATH }),
  });
}

// A stale bundle would silently run old workflow code, so edited sources win over it.
function isBundleFresh(): boolean {
  if (!existsSync(WORKFLOW_BUNDLE_PATH)) return false;
  const bundleTime = statSync(WORKFLOW_BUNDLE_PATH).mtimeMs;
  return readdirSync(WORKFLOWS_DIR, { recursive: true, encoding: 'utf8' }).every((name) => statSync(join(WORKFLOWS_DIR, name)).mtimeMs <= bundleTime);
}
