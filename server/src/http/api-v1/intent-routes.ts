/**
 * Payment intents under /api/v1/intents: the same services and core contracts as the tRPC
 * `intents` router. Creating is idempotent (Idempotency-Key header or idempotencyKey field);
 * a replay answers the first intent with `Idempotent-Replayed: true`.
 */
import { z } from 'zod';
import {
  attachPolicyInput,
  createIntentInput,
  decideIntentInput,
  intentListView,
  intentProgressView,
  intentView,
  listIntentsInput,
  paymentDetailView,
  paymentReceiptView,
} from '@purser/core';
import { attachIntentPolicy } from '../../services/intents/attach-intent-policy';
import { cancelIntent } from '../../services/intents/cancel-intent';
import { createIntent } from '../../services/intents/create-intent';
import { decideIntent } from '../../services/intents/decide-intent';
import { getIntent } from '../../services/intents/get-intent';
import { getIntentProgress } from '../../services/intents/get-intent-progress';
import { getPaymentDetail } from '../../services/intents/get-payment-detail';
import { listIntents } from '../../services/intents/list-intents';
import { issuePaymentReceipt } from '../../services/payments/issue-payment-receipt';
import { defineRoute, type ApiRoute } from './define-route';

const intentParams = z.object({ intentId: z.uuid({ error: 'Intent id must be a UUID' }) });
const decisionBody = decideIntentInput.omit({ intentId: true });

export const intentRoutes = [
  defineRoute({
    method: 'POST',
    path: '/intents',
    operationId: 'createIntent',
    summary: 'Create a payment intent; its payment workflow starts at once (policy gate, approval, rail, settlement)',
    tag: 'Payment intents',
    scope: 'payments:create',
    idempotent: true,
    status: 201,
    body: createIntentInput,
    response: intentView,
    async handler({ deps, owner, body, idempotencyKey, reply }) {
      const result = await createIntent(deps, { ownerId: owner.userId, createdBy: 'owner' }, body, { idempotencyKey });
      if (result.replayed) reply.header('Idempotent-Replayed', 'true');
      return result.response;
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/intents',
    operationId: 'listIntents',
    summary: "The owner's payment intents, newest first, a page at a time, filtered by status (repeat it for several), rail, agent, creation time, amount range and text",
    tag: 'Payment intents',
    scope: 'read',
    query: listIntentsInput,
    response: intentListView,
    handler: ({ deps, owner, query }) => listIntents(deps.db.prisma, owner.userId, query),
  }),
  defineRoute({
    method: 'GET',
    path: '/intents/:intentId',
    operationId: 'getIntent',
    summary: 'One payment intent with its policy decision and approval',
    tag: 'Payment intents',
    scope: 'read',
    params: intentParams,
    response: intentView,
    handler: ({ deps, owner, params }) => getIntent(deps.db.prisma, owner.userId, params.intentId),
  }),
  defineRoute({
    method: 'GET',
    path: '/intents/:intentId/detail',
    operationId: 'getPaymentDetail',
    summary: 'One payment in full: the intent, its agent, its rail operation (on-chain transaction and signed x402 authorisation), events, ledger entries, webhook deliveries, audit entries and workflow',
    tag: 'Payment intents',
    scope: 'read',
    params: intentParams,
    response: paymentDetailView,
    handler: ({ deps, owner, params }) => getPaymentDetail(deps, owner.userId, params.intentId),
  }),
  defineRoute({
    method: 'GET',
    path: '/intents/:intentId/receipt',
    operationId: 'getPaymentReceipt',
    summary: "A settled payment's receipt: a JWS signed with the platform issuer key, verifiable with the keys at /.well-known/jwt-vc-issuer",
    description:
      "The compact JWS (`typ` `purser-receipt+jwt`, `alg` EdDSA) states the payment's settled facts: intent id, amount (decimal and atomic units), currency, rail, payee, settlement reference and time, and for x402 payments the resource paid for. The same payment always answers the same receipt. A payment that has not settled answers 409 `CONFLICT`.",
    tag: 'Payment intents',
    scope: 'read',
    params: intentParams,
    response: paymentReceiptView,
    handler: ({ deps, owner, params }) => issuePaymentReceipt(deps, { ownerId: owner.userId }, params.intentId),
  }),
  defineRoute({
    method: 'GET',
    path: '/intents/:intentId/progress',
    operationId: 'getIntentProgress',
    summary: "The payment workflow's current step and step history",
    tag: 'Payment intents',
    scope: 'read',
    params: intentParams,
    response: intentProgressView,
    handler: ({ deps, owner, params }) => getIntentProgress(deps, owner.userId, params.intentId),
  }),
  defineRoute({
    method: 'POST',
    path: '/intents/:intentId/policy',
    operationId: 'attachIntentPolicy',
    summary: 'Attach a policy (dailyCap, allowedCategories, kyaEscalation, timeBox, ...) to an intent before its gate decides',
    tag: 'Payment intents',
    scope: 'payments:create',
    params: intentParams,
    body: attachPolicyInput.omit({ intentId: true }),
    response: intentView,
    handler: ({ deps, owner, params, body }) => attachIntentPolicy(deps, owner.userId, { ...body, intentId: params.intentId }),
  }),
  defineRoute({
    method: 'POST',
    path: '/intents/:intentId/approve',
    operationId: 'approveIntent',
    summary: 'Approve an intent waiting for approval; it then settles',
    tag: 'Payment intents',
    scope: 'payments:approve',
    params: intentParams,
    body: decisionBody,
    response: intentView,
    handler: ({ deps, owner, params, body }) => decideIntent(deps, owner.userId, 'approved', { ...body, intentId: params.intentId }),
  }),
  defineRoute({
    method: 'POST',
    path: '/intents/:intentId/reject',
    operationId: 'rejectIntent',
    summary: 'Reject an intent waiting for approval; no money moves',
    tag: 'Payment intents',
    scope: 'payments:approve',
    params: intentParams,
    body: decisionBody,
    response: intentView,
    handler: ({ deps, owner, params, body }) => decideIntent(deps, owner.userId, 'rejected', { ...body, intentId: params.intentId }),
  }),
  defineRoute({
    method: 'POST',
    path: '/intents/:intentId/cancel',
    operationId: 'cancelIntent',
    summary: 'Cancel an intent before any funds are reserved',
    tag: 'Payment intents',
    scope: 'payments:approve',
    params: intentParams,
    body: decisionBody,
    response: intentView,
    handler: ({ deps, owner, params, body }) => cancelIntent(deps, owner.userId, params.intentId, body.reason),
  }),
] as ApiRoute[];
