/**
 * A seller paid through MPP (the Machine Payments Protocol), built from the official `mppx`
 * server alone: `Mppx.create` with mppx's EVM `charge` method (an EIP-3009
 * transferWithAuthorization in sandbox USDC), which writes the 402's `WWW-Authenticate: Payment`
 * challenge, checks the credential (signature, amount, recipient, expiry, the challenge-bound
 * nonce) and writes the `Payment-Receipt`. Settlement is the seller's own: a relayer account of
 * its own submits the authorisation on the sandbox chain with viem and names the mined
 * transaction in the receipt.
 *
 * By default its 402 also carries mppx's own x402 offer (`PAYMENT-REQUIRED`, scheme `exact`), and
 * an x402 payment (`PAYMENT-SIGNATURE`) settles through the same callback; `x402: false` leaves
 * MPP alone (mppx's plain HTTP transport).
 *
 * GET (or any method) `/forecast` costs `price`. The hostile options make it a seller that lies,
 * one way each; what it saw and what it settled are in `seen` and `settlements`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eip3009ABI } from '@x402/evm';
import { Errors, Expires } from 'mppx';
import type { charge as EvmCharge } from 'mppx/evm/server';
import { Mppx, Transport, evm } from 'mppx/server';
import { createTestClient, createWalletClient, formatUnits, http, keccak256, parseEther, stringToHex, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { EvmChain } from '../../src/services/chain/evm-chain';

export const MPP_SELLER_PRICE = 10_000n; // $0.01
export const MPP_SELLER_PATH = '/forecast';

export interface MppSellerOptions {
  /** What the route asks, in atomic USDC; MPP_SELLER_PRICE when absent. (a) A price above the agent's limit is just a price. */
  price?: bigint;
  /** False: MPP only, no x402 offer in the 402 and no x402 payment accepted. */
  x402?: boolean;
  /** Who is paid; a fresh address when absent. */
  payTo?: Address;
  /** (b) The challenge names this chain id instead of the sandbox's. */
  chainId?: number;
  /** (b) The challenge names this token instead of sandbox USDC. */
  currency?: Address;
  /** (c) A credential is answered with a fresh 402 asking this amount instead (atomic USDC); nothing is settled. */
  retryPrice?: bigint;
  /** (d) The credential is settled on chain, and the answer is still a 402 with a new challenge. */
  askAgainAfterPayment?: boolean;
  /** (e) A 302 to `location` instead of the paid retry (nothing settled) or of the first call. */
  redirectTo?: { location: string; on: 'paid-retry' | 'first-call' };
  /** (f) The credential is settled on chain, and no answer ever comes (the socket stays open until close()). */
  hangAfterPayment?: boolean;
  /** (g) Nothing is settled; the answer is a 200 whose Payment-Receipt names this transaction. */
  receiptReference?: Hex;
  /** How long its challenges stay open, in seconds (mppx's default: 5 minutes). */
  expiresInSeconds?: number;
}

export interface SeenMppRequest {
  method: string;
  path: string;
  /** The `Authorization: Payment ...` header it was sent (an MPP credential), if any. */
  credential: string | null;
  /** The PAYMENT-SIGNATURE header it was sent (an x402 payment), if any. */
  paymentSignature: string | null;
  /** Every header, as it arrived. */
  headers: Record<string, string>;
  /** What it answered; null while it has not (a hang). */
  status: number | null;
}

/** A transferWithAuthorization the seller's relayer submitted and saw mined. */
export interface MppSettlement {
  /** Which wire carried it: an MPP credential's nonce is the challenge's hash; an x402 payment's is the buyer's. */
  protocol: 'mpp' | 'x402';
  from: Address;
  to: Address;
  value: bigint;
  nonce: Hex;
  transaction: Hex;
}

export interface MppSeller {
  url: string;
  /** `url` + MPP_SELLER_PATH. */
  paidUrl: string;
  payTo: Address;
  relayer: Address;
  seen: SeenMppRequest[];
  settlements: MppSettlement[];
  /** Requests it received, paid or not. */
  requests(): number;
  close(): Promise<void>;
}

const CREDENTIAL_HEADERS = ['authorization', 'payment-signature'];

/** node:http's request as a fetch Request, with its body. */
async function asFetchRequest(request: IncomingMessage, url: string, { withoutCredentials = false } = {}): Promise<Request> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (withoutCredentials && CREDENTIAL_HEADERS.includes(name)) continue;
    for (const item of [value ?? []].flat()) headers.append(name, item);
  }
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const body = request.method === 'GET' || request.method === 'HEAD' || chunks.length === 0 ? undefined : Buffer.concat(chunks);
  return new Request(`${url}${request.url}`, { method: request.method, headers, body });
}

async function send(response: ServerResponse, answer: Response): Promise<void> {
  response.writeHead(answer.status, Object.fromEntries(answer.headers));
  response.end(Buffer.from(await answer.arrayBuffer()));
}

export async function startMppSeller(chain: EvmChain, options: MppSellerOptions = {}): Promise<MppSeller> {
  const payTo = options.payTo ?? privateKeyToAccount(generatePrivateKey()).address;
  const relayer = privateKeyToAccount(generatePrivateKey());
  await createTestClient({ mode: 'anvil', transport: http(chain.rpcUrl) }).setBalance({ address: relayer.address, value: parseEther('1') });
  const wallet = createWalletClient({ account: relayer, chain: chain.publicClient.chain!, transport: http(chain.rpcUrl) });
  const { name, version } = await chain.usdcDomain();
  const seen: SeenMppRequest[] = [];
  const settlements: MppSettlement[] = [];
  // One transaction at a time, so concurrent payments never pick the same relayer nonce.
  let turn: Promise<unknown> = Promise.resolve();

  const settle: EvmCharge.SettleAuthorization = async ({ credential, payload }) => {
    if (options.receiptReference) return { reference: options.receiptReference };
    const { from, to, value, validAfter, validBefore, nonce, signature } = payload;
    const submit = async () => {
      const transaction = await wallet.writeContract({
        address: chain.info.usdcAddress,
        abi: eip3009ABI,
        functionName: 'transferWithAuthorization',
        args: [from as Address, to as Address, BigInt(value), BigInt(validAfter), BigInt(validBefore), nonce as Hex, signature as Hex],
      });
      return { transaction, receipt: await chain.publicClient.waitForTransactionReceipt({ hash: transaction }) };
    };
    const mined = turn.then(submit);
    turn = mined.catch(() => undefined);
    let outcome: Awaited<typeof mined>;
    try {
      outcome = await mined;
    } catch (error) {
      // A used nonce, a short balance: the simulation reverts and nothing is sent.
      throw new Errors.VerificationFailedError({ reason: `transferWithAuthorization refused: ${(error as Error).message.split('\n')[0]}` });
    }
    if (outcome.receipt.status !== 'success') throw new Errors.VerificationFailedError({ reason: `transferWithAuthorization reverted (${outcome.transaction})` });
    const challengeHash = keccak256(stringToHex(`${credential.challenge.id}${credential.challenge.realm}`));
    settlements.push({ protocol: nonce === challengeHash ? 'mpp' : 'x402', from: from as Address, to: to as Address, value: BigInt(value), nonce: nonce as Hex, transaction: outcome.transaction });
    return { reference: outcome.transaction };
  };

  const charge = evm.charge({
    currency: options.currency ?? chain.info.usdcAddress,
    chainId: options.chainId ?? chain.info.chainId,
    decimals: 6,
    authorization: { name, version },
    recipient: payTo,
    settle,
  });
  // mppx's plain HTTP transport speaks the Payment scheme only: no PAYMENT-REQUIRED, and a PAYMENT-SIGNATURE is not read.
  const method = options.x402 === false ? { ...charge, transport: Transport.http() } : charge;
  const mppx = Mppx.create({ methods: [method], realm: '127.0.0.1', secretKey: generatePrivateKey() });
  const hanging = new Set<ServerResponse>();
  let url = '';
  const priced = (amount: bigint) =>
    mppx.charge({ amount: formatUnits(amount, 6), description: 'Forecast', ...(options.expiresInSeconds !== undefined ? { expires: Expires.seconds(options.expiresInSeconds) } : {}) });

  async function answer(request: IncomingMessage, response: ServerResponse, record: SeenMppRequest): Promise<void> {
    const paying = record.credential !== null || record.paymentSignature !== null;
    const reply = (sent: Response) => ((record.status = sent.status), send(response, sent));
    if (record.path !== MPP_SELLER_PATH) return reply(new Response(null, { status: 404 }));
    const { redirectTo } = options;
    if (redirectTo && (redirectTo.on === 'first-call' || paying)) return reply(new Response(null, { status: 302, headers: { location: redirectTo.location } }));
    // A fresh 402, as if no payment had come.
    const askAgain = async (amount: bigint) => {
      const result = await priced(amount)(await asFetchRequest(request, url, { withoutCredentials: true }));
      if (result.status !== 402) throw new Error('a request without a credential was let through');
      return reply(result.challenge);
    };
    if (paying && options.retryPrice !== undefined) return askAgain(options.retryPrice);

    const result = await priced(options.price ?? MPP_SELLER_PRICE)(await asFetchRequest(request, url));
    if (result.status === 402) return reply(result.challenge);
    if (options.askAgainAfterPayment) return askAgain(options.price ?? MPP_SELLER_PRICE);
    if (options.hangAfterPayment) return void hanging.add(response);
    return reply(result.withReceipt(Response.json({ forecast: 'sunny' })));
  }

  const server = createServer((request, response) => {
    const headers = Object.fromEntries(Object.entries(request.headers).map(([header, value]) => [header, [value ?? []].flat().join(', ')]));
    const record: SeenMppRequest = {
      method: request.method ?? 'GET',
      path: (request.url ?? '/').split('?')[0]!,
      credential: /^payment\s/i.test(headers.authorization ?? '') ? headers.authorization! : null,
      paymentSignature: headers['payment-signature'] ?? null,
      headers,
      status: null,
    };
    seen.push(record);
    answer(request, response, record).catch((error: unknown) => {
      record.status = 500;
      response.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    paidUrl: `${url}${MPP_SELLER_PATH}`,
    payTo,
    relayer: relayer.address,
    seen,
    settlements,
    requests: () => seen.length,
    close: () =>
      new Promise<void>((resolve) => {
        hanging.clear();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
