import { router } from './init';
import { healthRouter } from './health/router';
import { authRouter } from './auth/router';
import { apiKeysRouter } from './api-keys/router';
import { walletRouter } from './wallet/router';
import { chainRouter } from './chain/router';
import { transactionsRouter } from './transactions/router';
import { realtimeRouter } from './realtime/router';
import { agentsRouter } from './agents/router';
import { intentsRouter } from './intents/router';
import { policiesRouter } from './policies/router';
import { webhooksRouter } from './webhooks/router';
import { budgetAlertsRouter } from './budget-alerts/router';
import { auditRouter } from './audit/router';
import { oauthRouter } from './oauth/router';
import { paymentSessionsRouter } from './payment-sessions/router';

export const appRouter = router({
  health: healthRouter,
  auth: authRouter,
  apiKeys: apiKeysRouter,
  wallet: walletRouter,
  chain: chainRouter,
  transactions: transactionsRouter,
  realtime: realtimeRouter,
  agents: agentsRouter,
  intents: intentsRouter,
  policies: policiesRouter,
  webhooks: webhooksRouter,
  budgetAlerts: budgetAlertsRouter,
  audit: auditRouter,
  oauth: oauthRouter,
  paymentSessions: paymentSessionsRouter,
});

export type AppRouter = typeof appRouter;
