// The shapes the API keys page reads, taken from the server's router type (erased at build).
import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '@purser/server';

type Outputs = inferRouterOutputs<AppRouter>;

export type OwnerApiKey = Outputs['apiKeys']['list']['api_keys'][number];
export type CreatedOwnerApiKey = Outputs['apiKeys']['create'];
