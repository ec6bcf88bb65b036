// A webhook receiver on 127.0.0.1, as an owner's endpoint would be: it keeps the deliveries whose
// Standard Webhooks signature verifies with the endpoint's secret (set once the console has shown
// it) and counts the others as forged, answering them 400.
import { createServer } from 'node:http';
import { Webhook } from 'standardwebhooks';

export interface ReceivedWebhook<Body> {
  /** The `webhook-id` header: the event's id, the same on every attempt and redelivery. */
  id: string;
  body: Body;
}

export interface WebhookReceiver<Body> {
  url: string;
  /** The endpoint's signing secret (`whsec_...`), set by the test once the console shows it. */
  secret: { value: string };
  received: ReceivedWebhook<Body>[];
  readonly forged: number;
  close: () => Promise<void>;
}

export async function startWebhookReceiver<Body>(path = '/hooks'): Promise<WebhookReceiver<Body>> {
  const state = { secret: { value: '' }, received: [] as ReceivedWebhook<Body>[], forged: 0 };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      try {
        const verified = new Webhook(state.secret.value).verify(body, request.headers as Record<string, string>) as Body;
        state.received.push({ id: String(request.headers['webhook-id']), body: verified });
        response.writeHead(204).end();
      } catch {
        state.forged++;
        response.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}${path}`,
    secret: state.secret,
    received: state.received,
    get forged() {
      return state.forged;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
