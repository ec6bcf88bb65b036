// The shapes the dashboard reads, taken from the server's router type (no server code is
// bundled: these imports are erased).
import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '@purser/server';

type Outputs = inferRouterOutputs<AppRouter>;

export type DashboardAgent = Outputs['agents']['list'][number];
export type DashboardWallet = NonNullable<Outputs['wallet']['get']>;
export type DashboardTransaction = Outputs['transactions']['recent'][number];
export type CreatedAgent = Outputs['agents']['create'];
