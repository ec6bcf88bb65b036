/**
 * A seller that sells access to accounts, built only from the official packages: @x402/hono's
 * middleware, @x402/evm's exact scheme paid through the chain's facilitator, and @x402/extensions'
 * own sign-in-with-x server (`createSIWxResourceServerExtension`: it publishes each 402's
 * challenge, verifies a SIGN-IN-WITH-X proof with validateSIWxMessage and verifySIWxSignature,
 * and remembers in its storage which addresses paid for what).
 *
 * Paths:
 * - `/account`: sign-in only (`accepts: []`) on the chain's network;
 * - `/mainnet-account`: sign-in only, on Ethereum mainnet (`eip155:1`) alone;
 * - `/report`: $0.01 (exact) or a sign-in by an address that paid for it before;
 * - `/elsewhere`: sign-in only, but the challenge names another site (`account.other.example`), as
 *   a seller collecting sign-ins valid elsewhere would.
 * What it saw of each request is in `seen`; what its sign-in server concluded, in `events`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ExactEvmScheme } from '@x402/evm/exact/server';
import { createSIWxResourceServerExtension, declareSIWxExtension, InMemorySIWxStorage, SIGN_IN_WITH_X, type SIWxHookEvent } from '@x402/extensions/sign-in-with-x';
import { paymentMiddleware, x402ResourceServer } from '@x402/hono';
import { Hono } from 'hono';
import type { EvmChain } from '../../src/services/chain/evm-chain';

export const SIGN_IN_SELLER_PRICE = 10_000n; // $0.01
export const OTHER_ORIGIN = 'https://account.other.example';

export interface SeenSignInRequest {
  path: string;
  /** The SIGN-IN-WITH-X header it was sent, if any. */
  signIn: string | null;
  paid: boolean;
  /** Whether it carried an HTTP message signature (Web Bot Auth), which this seller does not check. */
  signed: boolean;
}

export interface SignInSeller {
  url: string;
  payTo: `0x${string}`;
  seen: SeenSignInRequest[];
  events: SIWxHookEvent[];
  /** A request sent to the seller directly (a proof replayed at another site, in a test). */
  fetch(path: string, headers: Record<string, string>): Promise<Response>;
  close(): Promise<void>;
}

function api(chain: EvmChain, origin: string, payTo: `0x${string}`, events: SIWxHookEvent[]): Hono {
  const network = chain.info.network;
  const storage = new InMemorySIWxStorage();
  const onEvent = (event: SIWxHookEvent) => events.push(event);
  const here = new x402ResourceServer(chain.facilitator).register(network, new ExactEvmScheme()).registerExtension(createSIWxResourceServerExtension({ storage, origin, onEvent }));
  const elsewhere = new x402ResourceServer(chain.facilitator).registerExtension(createSIWxResourceServerExtension({ storage, origin: OTHER_ORIGIN, onEvent }));
  const signInOnly = (chainId: string) => ({
    accepts: [],
    description: 'Your account',
    mimeType: 'application/json',
    extensions: declareSIWxExtension({ network: chainId, statement: 'Sign in to your account', expirationSeconds: 300 }),
  });
  const app = new Hono();
  app.use(
    paymentMiddleware(
      {
        'GET /account': signInOnly(network),
        'GET /mainnet-account': signInOnly('eip155:1'),
        'GET /report': {
          accepts: { scheme: 'exact', network, payTo, price: '$0.01' },
          description: 'A report, yours to read again once paid',
          mimeType: 'application/json',
          extensions: declareSIWxExtension({ statement: 'Sign in to read the reports you bought' }),
        },
      },
      here,
    ),
  );
  app.use(paymentMiddleware({ 'GET /elsewhere': signInOnly(network) }, elsewhere));
  for (const path of ['/account', '/mainnet-account', '/report', '/elsewhere']) app.get(path, (c) => c.json({ path, content: 'yours' }));
  return app;
}

export async function startSignInSeller(chain: EvmChain): Promise<SignInSeller> {
  const seen: SeenSignInRequest[] = [];
  const events: SIWxHookEvent[] = [];
  const payTo = chain.sandboxSeller!;
  let app: Hono | null = null;
  let url = '';

  const serve = async (request: IncomingMessage, response: ServerResponse) => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) for (const item of [value ?? []].flat()) headers.append(name, item);
    // JSON, not the HTML paywall a browser's Accept would get.
    headers.set('accept', 'application/json');
    seen.push({ path: (request.url ?? '/').split('?')[0]!, signIn: headers.get(SIGN_IN_WITH_X), paid: headers.has('payment-signature'), signed: headers.has('signature') });
    const answer = await app!.fetch(new Request(`${url}${request.url}`, { method: request.method, headers }));
    response.writeHead(answer.status, Object.fromEntries(answer.headers));
    response.end(Buffer.from(await answer.arrayBuffer()));
  };
  const server = createServer((request, response) => {
    serve(request, response).catch((error: unknown) => response.writeHead(500).end(String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The sign-in server binds its challenges to the origin it is published at, known once listening.
  app = api(chain, url, payTo, events);
  return {
    url,
    payTo,
    seen,
    events,
    fetch: (path, headers) => fetch(`${url}${path}`, { headers }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
