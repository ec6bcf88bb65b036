// The three workflows of the landing page's Quick integration (product spec section 2, item 6).
// Each snippet is a real TypeScript file beside this folder (snippets/), shown as it is and
// type-checked against the TypeScript SDK (@purser/sdk) by snippets/snippets.test.ts and run
// against a started product by server/test/landing-snippets.temporal.test.ts.
import attachPolicy from '../snippets/attach-policy.ts?raw';
import createIntent from '../snippets/create-intent.ts?raw';
import listenToWebhooks from '../snippets/listen-to-webhooks.ts?raw';

export interface IntegrationWorkflow {
  id: 'create-intent' | 'attach-policy' | 'listen-to-webhooks';
  label: string;
  summary: string;
  fileName: string;
  code: string;
}

export const INTEGRATION_WORKFLOWS: readonly IntegrationWorkflow[] = [
  {
    id: 'create-intent',
    label: 'Create a payment intent',
    summary: 'POST /api/v1/intents with an Idempotency-Key: the payment workflow starts at once.',
    fileName: 'create-intent.ts',
    code: createIntent,
  },
  {
    id: 'attach-policy',
    label: 'Attach a policy',
    summary: 'POST /api/v1/intents/{id}/policy before the gate decides: the gate runs again with it.',
    fileName: 'attach-policy.ts',
    code: attachPolicy,
  },
  {
    id: 'listen-to-webhooks',
    label: 'Listen to webhooks',
    summary: 'POST /api/v1/webhooks, then verify every delivery’s Standard Webhooks signature.',
    fileName: 'listen-to-webhooks.ts',
    code: listenToWebhooks,
  },
];
