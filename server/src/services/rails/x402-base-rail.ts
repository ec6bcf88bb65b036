/**
 * x402 on Base. An x402 payment answers a seller's HTTP 402 with a signed EIP-3009
 * authorisation, so it can only be made while calling that seller: the agent API's /x402
 * endpoints do it (they hold the request, the seller's requirements and the facilitator).
 * A payment intent carries none of that, so this rail deliberately refuses to execute one
 * and says where to go instead; status still reads an operation recorded for the intent.
 */
import { AppError, SANDBOX_RAILS } from '@purser/core';
import type { PrismaClient } from '@purser/db';
import { readOperation, toRailResult, type Rail } from './rail';

export const X402_INTENT_REASON =
  "x402 payments on Base are made through the agent API's /x402 endpoints, which pay a seller's 402 response; a payment intent cannot carry one";

export function createX402BaseRail(deps: { prisma: PrismaClient }): Rail {
  const { prisma } = deps;
  const sandbox = SANDBOX_RAILS.includes('x402-base');
  return {
    name: 'x402-base',
    sandbox,
    // EIP-3009 transferWithAuthorization is a USDC feature.
    currencies: ['USDC'],

    async quote() {
      return { rail: 'x402-base', available: false, reason: X402_INTENT_REASON, fee: 0n, estimatedSettlementMs: 0, sandbox };
    },

    async execute() {
      throw new AppError('RAIL_UNAVAILABLE', X402_INTENT_REASON);
    },

    async status(intentId) {
      return toRailResult(await readOperation(prisma, intentId, 'x402-base'));
    },
  };
}
