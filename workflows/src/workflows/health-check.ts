// Workflows orchestrate; activities do the I/O. Code here runs in Temporal's deterministic
// sandbox and is replayed: no Node builtins, no clocks or randomness outside the workflow
// APIs, and activities are imported as types only.
import { proxyActivities } from '@temporalio/workflow';
import type { createActivities, DatabaseHealth } from '../activities';

const { checkDatabase } = proxyActivities<ReturnType<typeof createActivities>>({
  startToCloseTimeout: '10 seconds',
  // A health check should report a broken database promptly, not retry it for minutes.
  retry: { maximumAttempts: 3, initialInterval: '200 milliseconds' },
});

export interface HealthCheckResult {
  status: 'ok';
  database: DatabaseHealth;
}

/** Proves the whole chain works: client -> Temporal -> worker -> activity -> database. */
export async function healthCheckWorkflow(): Promise<HealthCheckResult> {
  const database = await checkDatabase();
  return { status: 'ok', database };
}
