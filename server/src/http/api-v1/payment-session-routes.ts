/**
 * Payment sessions on the owner REST API: budgets for one agent and one task, opened by the owner
 * or requested by the agent and decided here. Same services and contracts as the tRPC procedures
 * (trpc/payment-sessions). Granting, rejecting and ending a budget approves (or refuses) payments
 * ahead of time, so those writes need `payments:approve`; reads need `read`.
 */
import { decidePaymentSessionInput, listPaymentSessionsInput, openPaymentSessionInput, paymentSessionIdInput, paymentSessionListView, paymentSessionView } from '@purser/core';
import { decidePaymentSession } from '../../services/payment-sessions/decide-payment-session';
import { getPaymentSession } from '../../services/payment-sessions/get-payment-session';
import { listPaymentSessions } from '../../services/payment-sessions/list-payment-sessions';
import { openPaymentSession } from '../../services/payment-sessions/open-payment-session';
import { revokePaymentSession } from '../../services/payment-sessions/revoke-payment-session';
import { defineRoute, type ApiRoute } from './define-route';

const TAG = 'Payment sessions';
const decisionBody = decidePaymentSessionInput.omit({ sessionId: true });

export const paymentSessionRoutes: ApiRoute[] = [
  defineRoute({
    method: 'POST',
    path: '/payment-sessions',
    operationId: 'openPaymentSession',
    summary: 'Open a payment session for one of your agents: a total, an optional cap per payment, an expiry (at most 30 days) and an optional scope',
    tag: TAG,
    scope: 'payments:approve',
    status: 201,
    body: openPaymentSessionInput,
    response: paymentSessionView,
    handler: ({ deps, owner, body }) => openPaymentSession(deps, owner.userId, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/payment-sessions',
    operationId: 'listPaymentSessions',
    summary: "Your payment sessions, newest first (200 at most), with what each spent; filter by agentId and status (as shown: an open session past its expiry is closed)",
    tag: TAG,
    scope: 'read',
    query: listPaymentSessionsInput,
    response: paymentSessionListView,
    handler: ({ deps, owner, query }) => listPaymentSessions(deps, owner.userId, query),
  }),
  defineRoute({
    method: 'GET',
    path: '/payment-sessions/:sessionId',
    operationId: 'getPaymentSession',
    summary: 'One payment session with what it spent and what remains',
    tag: TAG,
    scope: 'read',
    params: paymentSessionIdInput,
    response: paymentSessionView,
    handler: ({ deps, owner, params }) => getPaymentSession(deps, owner.userId, params.sessionId),
  }),
  defineRoute({
    method: 'POST',
    path: '/payment-sessions/:sessionId/decide',
    operationId: 'decidePaymentSession',
    summary: "Grant an agent's budget request (approve, optionally a lower totalUsd or a sooner expiresAt) or reject it with a note; 409 once decided",
    tag: TAG,
    scope: 'payments:approve',
    params: paymentSessionIdInput,
    body: decisionBody,
    response: paymentSessionView,
    handler: ({ deps, owner, params, body }) => decidePaymentSession(deps, owner.userId, { ...body, sessionId: params.sessionId }),
  }),
  defineRoute({
    method: 'POST',
    path: '/payment-sessions/:sessionId/revoke',
    operationId: 'revokePaymentSession',
    summary: 'End a waiting request or an open session at once; 409 when it is already closed or rejected',
    tag: TAG,
    scope: 'payments:approve',
    params: paymentSessionIdInput,
    response: paymentSessionView,
    handler: ({ deps, owner, params }) => revokePaymentSession(deps, owner.userId, params.sessionId),
  }),
] as ApiRoute[];
