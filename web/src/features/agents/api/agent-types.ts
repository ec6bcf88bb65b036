// The shapes the agent page reads, taken from the server's router type (type-only imports:
// no server code is bundled).
import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '@purser/server';

type Outputs = inferRouterOutputs<AppRouter>;

export type AgentDetails = Outputs['agents']['get'];
export type KyaVerification = Outputs['agents']['kyaVerifications'][number];
export type SpendHistory = Outputs['agents']['spendHistory'];
export type BudgetAlertItem = Outputs['budgetAlerts']['list']['alerts'][number];
export type AgentPaymentSession = Outputs['paymentSessions']['list']['sessions'][number];
