// Create a payment intent: 50 USD (paid in USDC) from one of your agents, retried at most 3
// times. Its payment workflow starts at once: policy and KYA gate, approval, rail, settlement.
import { PurserOwnerClient } from '@purser/sdk';

const AGENT_ID = process.env.AGENT_ID; // the agent that pays
const API_KEY = process.env.PURSER_API_KEY; // an owner API key (psk_...) with the payments:create scope
if (!API_KEY || !AGENT_ID) throw new Error('Set PURSER_API_KEY and AGENT_ID');

const purser = new PurserOwnerClient({ baseUrl: process.env.PURSER_URL ?? 'http://localhost:3000', token: API_KEY });

const intent = await purser.intents.create(
  {
    agentId: AGENT_ID,
    amount: 50,
    currency: 'USDC',
    purpose: 'Market data for the weekly report',
    merchant: 'data.example.com',
    category: 'data',
    kyaTier: 'basic',
    geography: 'US',
    maxRetries: 3,
  },
  // The SDK sends a fresh key by default, and the same one on its own retries. A key named after
  // the purchase goes further: run this again today and you get this intent back, not a second payment.
  { idempotencyKey: `market-data-${new Date().toISOString().slice(0, 10)}` },
);
console.log(`intent ${intent.id} is ${intent.status}`);
