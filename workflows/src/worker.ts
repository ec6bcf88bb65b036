// The payments worker: polls the task queue and runs workflows and activities.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  OpenTelemetryActivityInboundInterceptor,
  OpenTelemetryActivityOutboundInterceptor,
  type OpenTelemetryWorkflowExporter,
} from '@temporalio/interceptors-opentelemetry';
import { Worker, type InjectedSink, type NativeConnection } from '@temporalio/worker';
import type { Activities } from './activities';
import { TASK_QUEUE } from './constants';

export const WORKFLOWS_PATH = fileURLToPath(new URL('./workflows/index.ts', import.meta.url));
const WORKFLOWS_DIR = fileURLToPath(new URL('./workflows/', import.meta.url));

/** Temporal's OpenTelemetry interceptors of workflow code: a span for the run and for each activity it schedules. */
const WORKFLOW_TRACING_MODULE = createRequire(import.meta.url).resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors');

export interface WorkflowBundle {
  codePath: string;
  workflowInterceptorModules: string[];
}

/**
 * Written by `npm run build -w @purser/workflows` (src/build-bundle.ts). Interceptor modules are
 * built into a bundle, so a traced worker needs a bundle of its own; the untraced one carries
 * none, and its workflows pay nothing for tracing.
 */
export const WORKFLOW_BUNDLE: WorkflowBundle = {
  codePath: fileURLToPath(new URL('../dist/workflow-bundle.js', import.meta.url)),
  workflowInterceptorModules: [],
};
export const TRACED_WORKFLOW_BUNDLE: WorkflowBundle = {
  codePath: fileURLToPath(new URL('../dist/workflow-bundle-traced.js', import.meta.url)),
  workflowInterceptorModules: [WORKFLOW_TRACING_MODULE],
};

/**
 * OpenTelemetry tracing of the worker: a workflow's spans continue the trace of the client that
 * started it, and an activity's spans that of the workflow that scheduled it. Spans made inside
 * workflow code leave the sandbox through the `exporter` sink, which is not called on replay.
 */
export interface WorkerTracing {
  workflowSpanSink: InjectedSink<OpenTelemetryWorkflowExporter>;
}

export interface PaymentsWorkerOptions {
  connection: NativeConnection;
  namespace: string;
  activities: Activities;
  taskQueue?: string;
  /** Absent: no tracing interceptors, no sink. */
  tracing?: WorkerTracing;
  log?: (message: string) => void;
}

/**
 * Creates (does not run) the worker. A prebuilt workflow bundle saves the seconds webpack
 * needs at startup; without one, or when it is older than the workflow sources, the worker
 * bundles `src/workflows` itself.
 */
export function createPaymentsWorker({ connection, namespace, activities, taskQueue = TASK_QUEUE, tracing, log = () => {} }: PaymentsWorkerOptions): Promise<Worker> {
  const bundle = tracing ? TRACED_WORKFLOW_BUNDLE : WORKFLOW_BUNDLE;
  const useBundle = isBundleFresh(bundle.codePath);
  log(useBundle ? `worker uses the prebuilt workflow bundle ${bundle.codePath}` : `worker bundles workflows from ${WORKFLOWS_PATH}`);
  return Worker.create({
    connection,
    namespace,
    taskQueue,
    activities,
    ...(useBundle ? { workflowBundle: { codePath: bundle.codePath } } : { workflowsPath: WORKFLOWS_PATH }),
    ...(tracing && {
      interceptors: {
        // A prebuilt bundle has them built in.
        workflowModules: useBundle ? [] : bundle.workflowInterceptorModules,
        activity: [(ctx) => ({ inbound: new OpenTelemetryActivityInboundInterceptor(ctx), outbound: new OpenTelemetryActivityOutboundInterceptor(ctx) })],
      },
      sinks: { exporter: tracing.workflowSpanSink },
    }),
  });
}

// A stale bundle would silently run old workflow code, so edited sources win over it.
function isBundleFresh(codePath: string): boolean {
  if (!existsSync(codePath)) return false;
  const bundleTime = statSync(codePath).mtimeMs;
  return readdirSync(WORKFLOWS_DIR, { recursive: true, encoding: 'utf8' }).every((name) => statSync(join(WORKFLOWS_DIR, name)).mtimeMs <= bundleTime);
}
