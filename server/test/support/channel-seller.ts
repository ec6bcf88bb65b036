/**
 * A seller paid through x402 `batch-settlement` channels, built only from the official packages
 * (@x402/hono's middleware, @x402/evm's batch-settlement server scheme with its own receiver
 * authorizer key) with its own official batch-settlement facilitator and gas account, independent
 * of Purser's, on the sandbox chain. GET /forecast costs `price` a call, with `minDeposit`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { x402Facilitator } from '@x402/core/facilitator';
import type { FacilitatorClient } from '@x402/core/server';
import { toFacilitatorEvmSigner } from '@x402/evm';
import { BatchSettlementEvmScheme as BatchSettlementFacilitatorScheme } from '@x402/evm/batch-settlement/facilitator';
import { BatchSettlementEvmScheme as BatchSettlementServerScheme, InMemoryChannelStorage } from '@x402/evm/batch-settlement/server';
import { paymentMiddleware, x402ResourceServer } from '@x402/hono';
import { Hono } from 'hono';
import { createWalletClient, http } from 'viem';
import { generatePrivateKey, mnemonicToAccount, privateKeyToAccount } from 'viem/accounts';
import type { EvmChain } from '../../src/services/chain/evm-chain';
import { ANVIL_MNEMONIC } from '../../src/services/chain/sandbox/start-sandbox-chain';

export interface ChannelSeller {
  url: string;
  payTo: `0x${string}`;
  scheme: BatchSettlementServerScheme;
  facilitator: FacilitatorClient;
  /** Paid calls it answered. */
  served(): number;
  /** The signature tag (Signature-Input's `tag`) of every request it received, in order; null for an unsigned one. */
  signatureTags(): (string | null)[];
  /** Claims every voucher it holds and settles, as a seller does from time to time. */
  claimAndSettle(): ReturnType<ReturnType<BatchSettlementServerScheme['createChannelManager']>['claimAndSettle']>;
  close(): Promise<void>;
}

export async function startChannelSeller(chain: EvmChain, options: { price: string; minDeposit: bigint; facilitatorAddressIndex?: number }): Promise<ChannelSeller> {
  const facilitatorAccount = mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: options.facilitatorAddressIndex ?? 7 });
  await chain.fundSandboxAddress(facilitatorAccount.address, 1n);
  const wallet = createWalletClient({ account: facilitatorAccount, chain: chain.publicClient.chain!, transport: http(chain.rpcUrl) });
  const { publicClient } = chain;
  const signer = toFacilitatorEvmSigner({
    address: facilitatorAccount.address,
    getCode: (args) => publicClient.getCode(args),
    readContract: (args) => publicClient.readContract({ ...(args as Parameters<typeof publicClient.readContract>[0]), account: facilitatorAccount.address }),
    verifyTypedData: (args) => publicClient.verifyTypedData(args as Parameters<typeof publicClient.verifyTypedData>[0]),
    writeContract: (args) => wallet.writeContract(args as Parameters<typeof wallet.writeContract>[0]),
    sendTransaction: (args) => wallet.sendTransaction(args),
    waitForTransactionReceipt: (args) => publicClient.waitForTransactionReceipt(args),
  });
  const facilitator = new x402Facilitator().register(chain.info.network, new BatchSettlementFacilitatorScheme(signer)) as unknown as FacilitatorClient;

  const payTo = privateKeyToAccount(generatePrivateKey()).address;
  const scheme = new BatchSettlementServerScheme(payTo, { receiverAuthorizerSigner: privateKeyToAccount(generatePrivateKey()), storage: new InMemoryChannelStorage() });
  const server = new x402ResourceServer(facilitator).register(chain.info.network, scheme);
  let served = 0;
  const api = new Hono();
  api.use(
    paymentMiddleware(
      {
        'GET /forecast': {
          accepts: { scheme: 'batch-settlement', network: chain.info.network, payTo, price: options.price, extra: { minDeposit: options.minDeposit.toString() } },
          description: 'Forecast',
          mimeType: 'application/json',
        },
      },
      server,
    ),
  );
  api.get('/forecast', (c) => {
    served += 1;
    return c.json({ forecast: 'sunny' });
  });

  let url = '';
  const tags: (string | null)[] = [];
  const serve = async (request: IncomingMessage, response: ServerResponse) => {
    tags.push(/;tag="([^"]+)"/.exec(String(request.headers['signature-input'] ?? ''))?.[1] ?? null);
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) for (const item of [value ?? []].flat()) headers.append(name, item);
    const answer = await api.fetch(new Request(`${url}${request.url}`, { method: request.method, headers }));
    response.writeHead(answer.status, Object.fromEntries(answer.headers));
    response.end(Buffer.from(await answer.arrayBuffer()));
  };
  const http_ = createServer((request, response) => {
    serve(request, response).catch((error: unknown) => response.writeHead(500).end(String(error)));
  });
  await new Promise<void>((resolve) => http_.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(http_.address() as AddressInfo).port}`;

  return {
    url,
    payTo,
    scheme,
    facilitator,
    served: () => served,
    signatureTags: () => [...tags],
    claimAndSettle: () => scheme.createChannelManager(facilitator, chain.info.network, chain.info.usdcAddress).claimAndSettle(),
    close: () =>
      new Promise<void>((resolve) => {
        http_.closeAllConnections();
        http_.close(() => resolve());
      }),
  };
}
