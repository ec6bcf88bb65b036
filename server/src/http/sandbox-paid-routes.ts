/**
 * The sandbox's demo paid API under /sandbox/paid/, for trying agents' x402 payments without
 * real money: weather, a quote, a report and a chart at a fixed price (x402's `exact` scheme),
 * metered text at most $0.01 a call (`upto`: the buyer signs the maximum, the seller settles the
 * tokens it produced), and price ticks at $0.001 a call through a payment channel
 * (`batch-settlement`: one deposit, then a signed voucher per call), each behind the official x402
 * seller middleware (@x402/hono; there is no Fastify one), paid to the sandbox's demo seller in
 * sandbox USDC. The channel seller signs its claims and refunds with the demo seller's own key.
 * Headlines are paid with MPP alone and exchange rates with MPP or x402, behind the official
 * `mppx` seller instead (sandbox-mpp-routes.ts). Fastify hands each request to a small Hono app
 * and sends back what it answers. On a real network nothing is registered.
 */
import { paymentMiddleware, setSettlementOverrides, x402ResourceServer } from '@x402/hono';
import { ExactEvmScheme } from '@x402/evm/exact/server';
import { UptoEvmScheme } from '@x402/evm/upto/server';
import { BatchSettlementEvmScheme, InMemoryChannelStorage } from '@x402/evm/batch-settlement/server';
import { mnemonicToAccount } from 'viem/accounts';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { Hono } from 'hono';
import type { Address } from 'viem';
import { z } from 'zod';
import type { EvmChain } from '../services/chain/evm-chain';
import { ANVIL_MNEMONIC } from '../services/chain/sandbox/start-sandbox-chain';
import { defineRoute, type ApiRoute } from './api-v1/define-route';
import { registerRoute } from './api-v1/register-route';
import { SANDBOX_CHART_MEDIA_TYPE, sandboxChartPng } from './sandbox-chart';
import { createSandboxMppSeller, MPP_PAYMENT_REQUIRED, type MppOffer } from './sandbox-mpp-routes';

export const SANDBOX_PAID_PREFIX = '/sandbox/paid';

/** What the paid routes' handlers get: the Hono app behind the x402 seller middleware. */
interface PaidApiDeps {
  paidApi: Hono;
}

interface PaidEndpoint {
  path: string;
  operationId: string;
  /** The price, or for a metered (`upto`) endpoint the most one call costs. */
  price: string;
  /** Metered: what the call used, in atomic USDC, which the seller settles (at most the price). */
  charge?(query: Record<string, string>): bigint;
  /** Paid through a payment channel (batch-settlement), with this minimum deposit. */
  channelDeposit?: string;
  /** Paid with MPP (mppx's seller), alone or with mppx's x402 offer beside it, instead of the x402 middleware. */
  mpp?: MppOffer;
  description: string;
  query?: z.ZodType;
  response: z.ZodType;
  /** What it answers: JSON unless named (the chart is a PNG). */
  mediaType?: string;
  respond(query: Record<string, string>): unknown;
}

const DEMO_NOTE = 'Demo data from the Purser sandbox, paid with test USDC.';

const weatherView = z.object({
  city: z.string(),
  forecast: z.string(),
  temperatureC: z.number(),
  humidityPercent: z.number(),
  windKph: z.number(),
  observedAt: z.string(),
  note: z.string(),
});

const quoteView = z.object({ quote: z.string(), author: z.string(), note: z.string() });

const reportView = z.object({
  title: z.string(),
  generatedAt: z.string(),
  summary: z.string(),
  highlights: z.array(z.string()),
  metrics: z.object({ paidRequests: z.number(), medianPriceUsd: z.number(), averageSettlementSeconds: z.number(), activeSellers: z.number() }),
  sections: z.array(z.object({ heading: z.string(), body: z.string() })),
  note: z.string(),
});

const tokensView = z.object({ tokens: z.number(), text: z.string(), chargedUsd: z.string(), note: z.string() });

/** The metered endpoint's rate: $0.00001 a token, at most 1,000 tokens ($0.01) a call. */
const TOKEN_PRICE = 10n;
const MAX_TOKENS = 1_000;

function tokensOf(query: Record<string, string>): number {
  const asked = Number.parseInt(query.tokens ?? '', 10);
  return Number.isSafeInteger(asked) && asked > 0 ? Math.min(asked, MAX_TOKENS) : 370;
}

const tickView = z.object({ symbol: z.string(), priceUsd: z.number(), at: z.string(), note: z.string() });

const headlinesView = z.object({ headlines: z.array(z.object({ title: z.string(), source: z.string() })), publishedAt: z.string(), note: z.string() });

const HEADLINES = [
  { title: 'Agents now pay for one API call at a time, in stablecoins', source: 'The Ledger Gazette' },
  { title: 'Two payment protocols, one wallet: sellers offer MPP and x402 side by side', source: 'Machine Commerce Weekly' },
  { title: 'Spending limits per agent become the norm for paid APIs', source: 'The Ledger Gazette' },
];

const fxRateView = z.object({ pair: z.string(), rate: z.number(), at: z.string(), note: z.string() });

/** A made-up rate that stays the same for a pair, so repeated calls agree. */
function fxRateFor(pair: string): z.input<typeof fxRateView> {
  const seed = [...pair].reduce((sum, char) => sum + char.charCodeAt(0), 0);
  return { pair, rate: Math.round((0.5 + (seed % 100) / 100) * 10_000) / 10_000, at: new Date().toISOString(), note: DEMO_NOTE };
}

const QUOTES = [
  { quote: 'The secret of getting ahead is getting started.', author: 'Mark Twain' },
  { quote: 'Well done is better than well said.', author: 'Benjamin Franklin' },
  { quote: 'It always seems impossible until it is done.', author: 'Nelson Mandela' },
  { quote: 'Nothing will work unless you do.', author: 'Maya Angelou' },
];

const FORECASTS = ['sunny', 'partly cloudy', 'overcast', 'light rain', 'windy', 'clear skies'];

/** Made-up weather that stays the same for a city, so repeated calls agree. */
function weatherFor(city: string): z.input<typeof weatherView> {
  const seed = [...city.toLowerCase()].reduce((sum, char) => sum + char.charCodeAt(0), 0);
  return {
    city,
    forecast: FORECASTS[seed % FORECASTS.length]!,
    temperatureC: (seed % 30) - 2,
    humidityPercent: 40 + (seed % 50),
    windKph: 5 + (seed % 35),
    observedAt: new Date().toISOString(),
    note: DEMO_NOTE,
  };
}

const ENDPOINTS: PaidEndpoint[] = [
  {
    path: '/weather',
    operationId: 'sandboxWeather',
    price: '$0.01',
    description: "Today's weather for a city (?city=, default Berlin)",
    query: z.object({ city: z.string().optional().describe('The city; Berlin when left out') }),
    response: weatherView,
    respond: (query) => weatherFor(query.city?.trim() || 'Berlin'),
  },
  {
    path: '/quote',
    operationId: 'sandboxQuote',
    price: '$0.005',
    description: 'An inspirational quote',
    response: quoteView,
    respond: (): z.input<typeof quoteView> => ({ ...QUOTES[Math.floor(Math.random() * QUOTES.length)]!, note: DEMO_NOTE }),
  },
  {
    path: '/report',
    operationId: 'sandboxReport',
    price: '$0.25',
    description: 'A market report on payments made by AI agents',
    response: reportView,
    respond: (): z.input<typeof reportView> => ({
      title: 'Agent payments: weekly market report',
      generatedAt: new Date().toISOString(),
      summary: 'Machine-to-machine payments keep growing as more APIs accept per-request stablecoin payments.',
      highlights: [
        'Per-request pricing replaces API keys and monthly plans for many data APIs.',
        'Most agent payments are below one dollar; settlement costs decide what is viable.',
        'Spending limits and approvals per agent are the most requested controls.',
      ],
      metrics: { paidRequests: 128_400, medianPriceUsd: 0.01, averageSettlementSeconds: 2.1, activeSellers: 342 },
      sections: [
        { heading: 'Demand', body: 'Research and data-enrichment agents account for most paid requests.' },
        { heading: 'Supply', body: 'Weather, search and market-data APIs lead the paid catalogue.' },
        { heading: 'Risk', body: 'Replay protection and per-agent budgets keep losses from misbehaving agents small.' },
      ],
      note: DEMO_NOTE,
    }),
  },
  {
    path: '/tokens',
    operationId: 'sandboxTokens',
    price: '$0.01',
    description: 'Metered text: at most $0.01 a call, charged $0.00001 a token (?tokens=, default 370, at most 1000), paid with the upto scheme',
    query: z.object({ tokens: z.string().optional().describe('How many tokens to produce; 370 when left out, at most 1000') }),
    response: tokensView,
    charge: (query) => BigInt(tokensOf(query)) * TOKEN_PRICE,
    respond: (query): z.input<typeof tokensView> => {
      const tokens = tokensOf(query);
      return { tokens, text: 'lorem '.repeat(tokens).trim(), chargedUsd: `$${(Number(BigInt(tokens) * TOKEN_PRICE) / 1e6).toFixed(5)}`, note: DEMO_NOTE };
    },
  },
  {
    path: '/ticks',
    operationId: 'sandboxTicks',
    price: '$0.001',
    description: 'A price tick for a symbol (?symbol=, default USDC), $0.001 a call through a payment channel (batch-settlement, minimum deposit $0.05)',
    query: z.object({ symbol: z.string().optional().describe('The symbol; USDC when left out') }),
    response: tickView,
    channelDeposit: '$0.05',
    respond: (query): z.input<typeof tickView> => ({ symbol: (query.symbol?.trim() || 'USDC').slice(0, 12).toUpperCase(), priceUsd: 1, at: new Date().toISOString(), note: DEMO_NOTE }),
  },
  {
    path: '/chart.png',
    operationId: 'sandboxChart',
    price: '$0.02',
    description: "A chart of the week's paid requests, as a PNG image",
    mediaType: SANDBOX_CHART_MEDIA_TYPE,
    response: z.string().meta({ format: 'binary', description: 'The PNG image' }),
    respond: () => sandboxChartPng(),
  },
  {
    path: '/headlines',
    operationId: 'sandboxHeadlines',
    price: '$0.01',
    description: "Today's headlines on agent payments, paid with MPP (the Machine Payments Protocol) alone",
    response: headlinesView,
    mpp: 'only',
    respond: (): z.input<typeof headlinesView> => ({ headlines: HEADLINES, publishedAt: new Date().toISOString(), note: DEMO_NOTE }),
  },
  {
    path: '/fx-rate',
    operationId: 'sandboxFxRate',
    price: '$0.005',
    description: 'An exchange rate (?pair=, default EUR-USD), paid with MPP or with x402 (exact), as the buyer prefers',
    query: z.object({ pair: z.string().optional().describe('The currency pair; EUR-USD when left out') }),
    response: fxRateView,
    mpp: 'with-x402',
    respond: (query) => fxRateFor((query.pair?.trim() || 'EUR-USD').slice(0, 15).toUpperCase()),
  },
];

function createPaidApi(chain: EvmChain, payTo: Address): Hono {
  const network = chain.info.network;
  // The demo seller's own key (anvil's account 1) signs its channels' claims and refunds.
  const channels = new BatchSettlementEvmScheme(payTo, { receiverAuthorizerSigner: mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: 1 }), storage: new InMemoryChannelStorage() });
  const server = new x402ResourceServer(chain.facilitator).register(network, new ExactEvmScheme()).register(network, new UptoEvmScheme()).register(network, channels);
  const routes = Object.fromEntries(
    ENDPOINTS.filter((endpoint) => !endpoint.mpp).map((endpoint) => [
      `GET ${SANDBOX_PAID_PREFIX}${endpoint.path}`,
      {
        accepts: endpoint.channelDeposit
          ? { scheme: 'batch-settlement', network, payTo, price: endpoint.price, extra: { minDeposit: String(Math.round(Number(endpoint.channelDeposit.slice(1)) * 1e6)) } }
          : { scheme: endpoint.charge ? 'upto' : 'exact', network, payTo, price: endpoint.price },
        description: endpoint.description,
        mimeType: endpoint.mediaType ?? 'application/json',
      },
    ]),
  );
  const mppSeller = createSandboxMppSeller(chain, payTo);
  const api = new Hono();
  // Gates the routes in its table only; the MPP ones pass on to mppx's middleware.
  api.use(paymentMiddleware(routes, server));
  for (const endpoint of ENDPOINTS) {
    const path = `${SANDBOX_PAID_PREFIX}${endpoint.path}`;
    if (endpoint.mpp) api.use(path, mppSeller.charge(endpoint.mpp, endpoint.price, endpoint.description));
    api.get(path, (c) => {
      // A metered call settles what it used, not the maximum the buyer signed.
      if (endpoint.charge) setSettlementOverrides(c, { amount: endpoint.charge(c.req.query()).toString() });
      const answer = endpoint.respond(c.req.query());
      if (!endpoint.mediaType) return c.json(answer);
      return c.body(new Uint8Array(answer as Buffer), 200, { 'content-type': endpoint.mediaType });
    });
  }
  return api;
}

function toFetchRequest(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    for (const item of [value ?? []].flat()) headers.append(name, item);
  }
  // The API answers JSON only. A browser's Accept would make the middleware answer 402 with the
  // HTML paywall of @x402/paywall, which is not installed (it would serve a placeholder page).
  headers.set('accept', 'application/json');
  // GET and HEAD only: no body to pass on.
  return new Request(`${request.protocol}://${request.host}${request.url}`, { method: request.method, headers });
}

/** Sends what the Hono app answers: the paid data, or the middleware's 402 and its PAYMENT-REQUIRED header. */
async function forward(paidApi: Hono, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const response = await paidApi.fetch(toFetchRequest(request));
  reply.status(response.status);
  response.headers.forEach((value, name) => {
    reply.header(name, value);
  });
  return reply.send(Buffer.from(await response.arrayBuffer()));
}

const PAYMENT_REQUIRED =
  'Payment required (x402): the PAYMENT-REQUIRED header (base64 JSON) lists the accepted payment; send it signed in PAYMENT-SIGNATURE, or let an agent pay through /x402/fetch';

/** Sandbox only: on a real network these routes are not served (404). */
export const sandboxPaidApiRoutes: ApiRoute<z.ZodType, z.ZodType, z.ZodType, z.ZodType, PaidApiDeps>[] = ENDPOINTS.map((endpoint) =>
  defineRoute<z.ZodType, z.ZodType, z.ZodType, z.ZodType, PaidApiDeps>({
    method: 'GET',
    path: endpoint.path,
    operationId: endpoint.operationId,
    summary: `${endpoint.description}, for ${endpoint.price} in sandbox USDC (sandbox only)`,
    tag: 'Sandbox paid API',
    auth: 'public',
    query: endpoint.query,
    mediaType: endpoint.mediaType ?? 'application/json',
    response: endpoint.response,
    otherResponses: { 402: endpoint.mpp ? MPP_PAYMENT_REQUIRED[endpoint.mpp] : PAYMENT_REQUIRED },
    handler: ({ deps, request, reply }) => forward(deps.paidApi, request, reply),
  }),
);

export const sandboxPaidRoutes: FastifyPluginAsync<{ chain: EvmChain }> = async (app, { chain }) => {
  if (!chain.info.sandbox || !chain.sandboxSeller) return;
  const deps: PaidApiDeps = { paidApi: createPaidApi(chain, chain.sandboxSeller) };
  for (const route of sandboxPaidApiRoutes) registerRoute(app, route, { deps, prefix: SANDBOX_PAID_PREFIX });
};
