// Attach a policy to an intent before its gate decides: a daily cap of 100, the categories it
// may pay for, KYA escalation to 'moderate' (the owner's approval may stand in for a higher
// tier) and a 24h time box for that approval. The gate then runs again with it.
import { PurserOwnerClient } from '@purser/sdk';

const API_KEY = process.env.PURSER_API_KEY; // an owner API key (psk_...) with the payments:create scope
const INTENT_ID = process.env.INTENT_ID; // the id create-intent printed
if (!API_KEY || !INTENT_ID) throw new Error('Set PURSER_API_KEY and INTENT_ID');

const purser = new PurserOwnerClient({ baseUrl: process.env.PURSER_URL ?? 'http://localhost:3000', token: API_KEY });

// Once the gate has decided, this throws a PurserApiError with code 'CONFLICT' (409).
const intent = await purser.intents.attachPolicy(INTENT_ID, {
  policy: {
    dailyCap: 100,
    allowedCategories: ['data', 'compute'],
    kyaEscalation: 'moderate',
    timeBox: '24h',
  },
});
console.log(`intent ${intent.id} is ${intent.status}; gate: ${intent.policyDecision?.decision ?? 'deciding'}`);
