/**
 * A webhook receiver on 127.0.0.1 that misbehaves on purpose, for the fault tests: it answers
 * each request as `decide` says (a status, or never), and can go down (its HTTP server closed,
 * so connections are refused) and come back on the same port. It records every request it
 * read, whatever it answered, so a test can compare what arrived with Purser's delivery log.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A status code to answer with, or 'hang': read the request and never answer it. */
export type ReceiverAnswer = number | 'hang';

export interface ReceivedWebhook {
  webhookId: string;
  /** How many requests with this webhook-id arrived before this one, plus one. */
  arrival: number;
  headers: Record<string, string>;
  body: string;
  answer: ReceiverAnswer;
}

export interface FlakyReceiver {
  url: string;
  port: number;
  /** Every request read, in arrival order. */
  requests: ReceivedWebhook[];
  /** The requests answered 2xx: the ones the receiver accepted. */
  accepted(): ReceivedWebhook[];
  /** Closes the server and every open connection: from now on connections are refused. */
  down(): Promise<void>;
  /** Listens again on the same port. */
  up(): Promise<void>;
  close(): Promise<void>;
}

export async function startFlakyReceiver(decide: (request: { webhookId: string; arrival: number }) => ReceiverAnswer): Promise<FlakyReceiver> {
  const requests: ReceivedWebhook[] = [];
  const arrivals = new Map<string, number>();
  const http: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const webhookId = String(request.headers['webhook-id'] ?? '');
      const arrival = (arrivals.get(webhookId) ?? 0) + 1;
      arrivals.set(webhookId, arrival);
      const answer = decide({ webhookId, arrival });
      const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
      requests.push({ webhookId, arrival, headers, body: Buffer.concat(chunks).toString('utf8'), answer });
      if (answer === 'hang') return;
      response.writeHead(answer, { 'content-type': 'text/plain' }).end(answer >= 300 ? 'busy, try again later' : 'ok');
    });
  });

  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(port, '127.0.0.1', () => {
        http.off('error', reject);
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      // Hanging requests keep their sockets open; without this, close() would wait for them.
      http.closeAllConnections();
      http.close(() => resolve());
    });

  await listen(0);
  const port = (http.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    port,
    requests,
    accepted: () => requests.filter((request) => typeof request.answer === 'number' && request.answer >= 200 && request.answer < 300),
    down: stop,
    up: () => listen(port),
    close: () => (http.listening ? stop() : Promise.resolve()),
  };
}
