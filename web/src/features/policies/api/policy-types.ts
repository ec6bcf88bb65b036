// The shapes the policies page reads, taken from the server's router type (type-only imports:
// no server code is bundled).
import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '@purser/server';

type Outputs = inferRouterOutputs<AppRouter>;

export type Policy = Outputs['policies']['list'][number];
export type PolicyAgent = Outputs['agents']['list'][number];
export type BlockedPayment = Outputs['policies']['wouldHaveBlocked']['intents'][number];
