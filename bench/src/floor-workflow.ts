/**
 * The floors of a payment workflow, run by the floor worker, which bundles this file (workflow
 * code: no Node builtins; its activity is seen as a type only).
 *
 * - oneActivityWorkflow runs one activity that does nothing: a start, a workflow task, an
 *   activity task, a second workflow task and the completion. The floor of one payment's
 *   latency, as it has been since the first table.
 * - emptyWorkflow does nothing: a start, one workflow task and the completion. A ledger-rail
 *   payment asks the same of Temporal: its steps are local activities, run inside its one
 *   workflow task and recorded as markers, with no activity task. Its throughput is the
 *   ceiling the payments' throughput is compared with.
 */
import { proxyActivities } from '@temporalio/workflow';

export interface FloorActivities {
  noop(): Promise<void>;
}

const { noop } = proxyActivities<FloorActivities>({ startToCloseTimeout: '1 minute' });

export async function oneActivityWorkflow(): Promise<void> {
  await noop();
}

export async function emptyWorkflow(): Promise<void> {}

export type FloorWorkflow = 'oneActivityWorkflow' | 'emptyWorkflow';
