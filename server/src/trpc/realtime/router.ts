import { router } from '../init';
import { agentChanges } from './agent-changes';
import { consoleChanges } from './console-changes';
import { dashboardChanges } from './dashboard-changes';
import { intentChanges } from './intent-changes';
import { intentProgress } from './intent-progress';
import { transactionCreated } from './transaction-created';
import { walletChanges } from './wallet-changes';

/** Live updates for the dashboard, as tRPC subscriptions over server-sent events. */
export const realtimeRouter = router({
  dashboardChanges,
  walletChanges,
  agentChanges,
  transactionCreated,
  intentChanges,
  consoleChanges,
  intentProgress,
});
