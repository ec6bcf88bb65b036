// The shapes the payments pages read, taken from the server's router type (type-only imports:
// no server code is bundled).
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '@purser/server';

type Inputs = inferRouterInputs<AppRouter>;
type Outputs = inferRouterOutputs<AppRouter>;

export type PaymentIntent = Outputs['intents']['list']['intents'][number];
export type PaymentAgent = Outputs['agents']['list'][number];
export type ListIntentsQuery = Inputs['intents']['list'];
export type IntentStatus = PaymentIntent['status'];
export type RailName = PaymentIntent['rail'];
export type PaymentProtocol = NonNullable<PaymentIntent['protocol']>;
export type FiredRule = NonNullable<PaymentIntent['policyDecision']>['fired'][number];
export type PaymentSession = Outputs['paymentSessions']['list']['sessions'][number];
