// The shapes the audit page reads, taken from the server's router type (erased at build).
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '@purser/server';

type Inputs = inferRouterInputs<AppRouter>;
type Outputs = inferRouterOutputs<AppRouter>;

export type AuditEntry = Outputs['audit']['list']['entries'][number];
export type AuditVerification = Outputs['audit']['verify'];
export type AuditListInput = NonNullable<Inputs['audit']['list']>;
