/**
 * The floor of a payment workflow: a workflow that runs one activity that does nothing. It
 * costs what Temporal itself costs (a start, a workflow task, an activity task, a completion)
 * and nothing the product adds. Workflow code: the floor worker bundles this file, so it uses
 * no Node builtins and sees its activity as a type only.
 */
import { proxyActivities } from '@temporalio/workflow';

export interface FloorActivities {
  noop(): Promise<void>;
}

const { noop } = proxyActivities<FloorActivities>({ startToCloseTimeout: '1 minute' });

export async function oneActivityWorkflow(): Promise<void> {
  await noop();
}
