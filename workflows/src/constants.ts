/** Task queue the payments worker polls (ARCHITECTURE: "N replicas on task queue `payments`"). */
export const TASK_QUEUE = 'payments';

/** Workflow type names, so clients can start workflows without loading workflow code. */
export const WORKFLOW_NAMES = {
  healthCheck: 'healthCheckWorkflow',
} as const;
