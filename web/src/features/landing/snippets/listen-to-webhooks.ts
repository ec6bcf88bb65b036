// Listen to payment events: register an endpoint, then trust a delivery only when its
// Standard Webhooks signature verifies, and handle each event once.
import { createServer } from 'node:http';
import { PurserOwnerClient, verifyWebhook, WebhookVerificationError, type WebhookEvent } from '@purser/sdk';

const API_KEY = process.env.PURSER_API_KEY; // an owner API key (psk_...) with the webhooks:admin scope
if (!API_KEY) throw new Error('Set PURSER_API_KEY');
const PORT = Number(process.env.PORT ?? 8080);
// Where Purser reaches this server: a public https URL in production.
const WEBHOOK_URL = process.env.WEBHOOK_URL ?? `http://localhost:${PORT}/purser-events`;

const purser = new PurserOwnerClient({ baseUrl: process.env.PURSER_URL ?? 'http://localhost:3000', token: API_KEY });

// The signing secret is in this answer only: keep it in your secret store.
const { secret } = await purser.webhooks.create({
  url: WEBHOOK_URL,
  events: ['intent.created', 'intent.approved', 'settlement.completed', 'policy.violation'],
});

const seen = new Set<string>();
createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    let event: WebhookEvent;
    try {
      // The raw body as received: signature, timestamp (a stale one is a replay), then JSON.
      event = verifyWebhook({ payload: Buffer.concat(chunks), headers: request.headers, secret });
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      response.writeHead(400).end(error.reason);
      return;
    }
    // Answer 2xx at once: anything else is retried with back-off for 25 hours.
    response.writeHead(204).end();
    if (seen.has(event.id)) return; // a retry or redelivery of an event already handled
    seen.add(event.id);
    console.log(`${event.type}: intent ${event.data.intent.id} is ${event.data.intent.status}`);
  });
}).listen(PORT, () => console.log(`listening for Purser events on ${WEBHOOK_URL}`));
