/**
 * A seller that checks who is calling, the way a site behind Cloudflare or a merchant on Visa's
 * Trusted Agent Protocol would: every request's HTTP message signature is verified with
 * Cloudflare's packages against the key directory named in its `Signature-Agent` header, fetched
 * over HTTP each time (no cache, so a suspension or a revocation shows at once).
 *
 * - The current draft's form (`Signature-Agent: sig1="https://..."`, covered as
 *   `"signature-agent";key="sig1"`) is verified with `http-message-sig`'s verifySignature, the
 *   key checked by `web-bot-auth`'s own Ed25519 verifier (`verifierFromJWK`).
 * - The older form (`Signature-Agent: "https://..."`) with `web-bot-auth`'s `verify`.
 *
 * Paths: `/free` answers 200 to anyone; `/paid` asks for an exact x402 payment of PRICE and
 * redeems what it is sent through the chain's facilitator. What it saw of each request is in `seen`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { webcrypto } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { isSignatureError, verifySignature, component, type Verifier } from 'http-message-sig';
import { verify as verifyOlderForm } from 'web-bot-auth';
import { verifierFromJWK } from 'web-bot-auth/crypto';
import { decodePaymentSignatureHeader, encodePaymentRequiredHeader, encodePaymentResponseHeader } from '@x402/core/http';
import type { PaymentRequired, PaymentRequirements } from '@x402/core/types';
import type { EvmChain } from '../../src/services/chain/evm-chain';

type JsonWebKey = webcrypto.JsonWebKey;

export const VERIFYING_SELLER_PRICE = 10_000n; // $0.01
/** What a TAP verifier accepts at most between created and expires. */
const MAX_LIFETIME_S = 8 * 60;

export type VerifiedIdentity = { keyid: string; tag: string; directory: string; nonce: string; form: 'dictionary' | 'string' } | { error: string };

export interface SeenRequest {
  path: string;
  paid: boolean;
  identity: VerifiedIdentity | null;
  /** The request as it arrived (URL with its Host, headers), to verify again or tamper with. */
  url: string;
  headers: Record<string, string>;
}

export interface VerifyingSeller {
  url: string;
  seen: SeenRequest[];
  /** Verifies a request as the seller does (a tampered copy, in a test). */
  verify(request: Request): Promise<VerifiedIdentity | null>;
  close(): Promise<void>;
}

/** The keys of a directory, fetched as a verifier fetches it. */
async function directoryKeys(url: string): Promise<JsonWebKey[]> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`directory answered ${response.status}`);
  const type = response.headers.get('content-type') ?? '';
  if (!type.startsWith('application/http-message-signatures-directory+json')) throw new Error(`directory has content-type ${type}`);
  return ((await response.json()) as { keys: JsonWebKey[] }).keys;
}

function keyidOf(signatureInput: string): string | null {
  return /;keyid="([^"]+)"/.exec(signatureInput)?.[1] ?? null;
}

/** Cloudflare's Ed25519 verifier of a directory key, in http-message-sig's Verifier shape. */
async function verifierFor(jwk: JsonWebKey, params: { keyid: string; tag: string; nonce?: string; created: number; expires: number }): Promise<Verifier> {
  const check = await verifierFromJWK(jwk);
  return {
    algorithm: 'ed25519',
    async verify(data, signature) {
      try {
        await check(new TextDecoder().decode(data), signature, {
          keyid: params.keyid,
          tag: params.tag,
          nonce: params.nonce,
          created: new Date(params.created * 1000),
          expires: new Date(params.expires * 1000),
        } as never);
        return true;
      } catch {
        return false;
      }
    },
  };
}

export async function verifyAgentRequest(request: Request): Promise<VerifiedIdentity | null> {
  const signatureAgent = request.headers.get('signature-agent');
  const signatureInput = request.headers.get('signature-input');
  if (!signatureAgent || !signatureInput || !request.headers.get('signature')) return null;
  try {
    const dictionary = /^([a-z][a-z0-9_.*-]*)="([^"]+)"$/.exec(signatureAgent.trim());
    const directory = dictionary ? dictionary[2]! : JSON.parse(signatureAgent) as string;
    const keys = await directoryKeys(directory);
    const keyid = keyidOf(signatureInput);
    const jwk = keys.find((key) => (key as { kid?: string }).kid === keyid);
    if (!jwk || !keyid) return { error: `keyid ${keyid} is not in the directory` };
    if (!dictionary) {
      await verifyOlderForm(request, await verifierFromJWK(jwk));
      return { keyid, tag: 'web-bot-auth', directory, nonce: '', form: 'string' };
    }
    const verified = await verifySignature(request, {
      label: dictionary[1]!,
      policy: {
        algorithms: ['ed25519'],
        requiredComponents: ['@authority', '@path', component('signature-agent', { key: dictionary[1]! })],
        requiredParameters: ['created', 'expires', 'keyid', 'nonce', 'tag'],
        maxAge: MAX_LIFETIME_S,
        validate: (signature) => {
          const { created, expires, tag } = signature.parameters;
          if (tag !== 'web-bot-auth' && tag !== 'agent-payer-auth') return false;
          if (typeof created !== 'number' || typeof expires !== 'number' || expires - created > MAX_LIFETIME_S) return false;
          return expires * 1000 > Date.now();
        },
      },
      resolveVerifier: async (candidate) => {
        const { keyid: id, tag, nonce, created, expires } = candidate.parameters;
        if (id !== keyid) throw new Error('keyid changed');
        return verifierFor(jwk, { keyid: id, tag: String(tag), nonce: nonce as string | undefined, created: Number(created), expires: Number(expires) });
      },
    });
    return { keyid, tag: String(verified.parameters.tag), directory, nonce: String(verified.parameters.nonce), form: 'dictionary' };
  } catch (error) {
    return { error: isSignatureError(error) ? `${error.code}: ${error.message}` : String(error) };
  }
}

/** node:http's request as a fetch Request (method, URL with the Host it was sent to, headers). */
function asFetchRequest(request: IncomingMessage): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) if (typeof value === 'string') headers.set(name, value);
  return new Request(`http://${request.headers.host}${request.url}`, { method: request.method, headers });
}

export async function startVerifyingSeller(chain: EvmChain): Promise<VerifyingSeller> {
  const seen: SeenRequest[] = [];
  const payTo = chain.sandboxSeller!;
  let url = '';

  async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = (request.url ?? '/').split('?')[0]!;
    const header = (request.headers['payment-signature'] ?? request.headers['x-payment']) as string | undefined;
    const arrived = asFetchRequest(request);
    seen.push({ path, paid: header !== undefined, identity: await verifyAgentRequest(arrived), url: arrived.url, headers: Object.fromEntries(arrived.headers) });
    if (path === '/free') return void response.writeHead(200, { 'content-type': 'application/json' }).end('{"free":true}');
    if (path !== '/paid') return void response.writeHead(404).end();
    const requirement = { scheme: 'exact', network: 'eip155:84532', amount: String(VERIFYING_SELLER_PRICE), asset: chain.info.usdcAddress, payTo, maxTimeoutSeconds: 60, extra: { name: 'USDC', version: '2' } };
    if (!header) {
      const required = { x402Version: 2, resource: { url: `${url}${path}`, description: 'Forecast', mimeType: 'application/json' }, accepts: [requirement] } as unknown as PaymentRequired;
      return void response.writeHead(402, { 'payment-required': encodePaymentRequiredHeader(required), 'content-type': 'application/json' }).end('{}');
    }
    const payment = decodePaymentSignatureHeader(header);
    const settled = await chain.facilitator.settle(payment, requirement as unknown as PaymentRequirements);
    response.writeHead(settled.success ? 200 : 402, { 'content-type': 'application/json', 'payment-response': encodePaymentResponseHeader(settled) });
    response.end(JSON.stringify({ forecast: 'sunny' }));
  }

  const server = createServer((request, response) => {
    answer(request, response).catch((error: unknown) => response.writeHead(500).end(String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    seen,
    verify: verifyAgentRequest,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
