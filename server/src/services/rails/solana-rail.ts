/**
 * Solana sandbox rail (labelled sandbox everywhere): real SPL token transfers, executed by a
 * Solana virtual machine running inside this process (LiteSVM), with no RPC node and no
 * cluster. A sandbox treasury (its SOL airdropped) holds sandbox USDC and USDT mints of 6
 * decimals, the same atomic units as the ledger's, and pays each intent to its destination's
 * associated token account in one transaction with the intent id in a memo. The transaction
 * signature is the operation's reference; the operation settles when the transaction lands.
 *
 * The chain lives in memory: a restarted process starts a fresh one (the recorded operations
 * stay in the database). Keys derive from `seed`, so with a fixed seed the treasury and mint
 * addresses are the same after a restart.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { LiteSVM } from 'litesvm';
import {
  AccountRole,
  address,
  appendTransactionMessageInstructions,
  createKeyPairSignerFromPrivateKeyBytes,
  createTransactionMessage,
  getAddressDecoder,
  getSignatureFromTransaction,
  isAddress,
  lamports,
  pipe,
  setTransactionMessageFeePayerSigner,
  signTransactionMessageWithSigners,
  type Address,
  type Instruction,
  type KeyPairSigner,
} from '@solana/kit';
import { getCreateAccountInstruction } from '@solana-program/system';
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getInitializeMint2Instruction,
  getMintSize,
  getMintToInstruction,
  getTokenDecoder,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';
import { AppError, CURRENCIES, DECIMALS, UNITS_PER_DOLLAR, type Currency } from '@purser/core';
import type { PrismaClient } from '@purser/db';
import { readOperation, recordOperationOnce, toRailResult, type NewOperation } from '../rail-operations/operation-record';
import type { Clock, Rail, RailPayment } from '../rail-operations/rail';

export interface SolanaRailOptions {
  /** Any bytes: the treasury's and the mints' keys derive from them. Random per process by default. */
  seed?: Uint8Array;
}

const MEMO_PROGRAM_ADDRESS = address('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');
const LAMPORTS_PER_SOL = 1_000_000_000n;
/** The treasury's SOL pays fees and rent of new token accounts; it is airdropped again when low. */
const TREASURY_AIRDROP = 1_000n * LAMPORTS_PER_SOL;
const TREASURY_LOW_WATER = 10n * LAMPORTS_PER_SOL;
/** Sandbox tokens the treasury mints itself whenever it cannot cover a payment. */
const TREASURY_MINT_BATCH = 1_000_000_000n * UNITS_PER_DOLLAR;

interface SolanaSandbox {
  svm: LiteSVM;
  treasury: KeyPairSigner;
  mints: Record<Currency, Address>;
  treasuryAccounts: Record<Currency, Address>;
}

export interface SolanaRail extends Rail {
  /** A payee's sandbox token balance in atomic units: what the sandbox chain says it received. */
  payeeBalance(owner: string, currency: Currency): Promise<bigint>;
}

export function createSolanaRail(deps: { prisma: PrismaClient; now: Clock; options?: SolanaRailOptions }): SolanaRail {
  const { prisma, now } = deps;
  const seed = deps.options?.seed ?? randomBytes(32);
  let sandbox: Promise<SolanaSandbox> | undefined;
  // LiteSVM executes one transaction at a time; the treasury's balance checks must see the
  // previous transfer, so transfers run one after another.
  let queue: Promise<unknown> = Promise.resolve();
  // A second execute of the same intent in this process waits for the first instead of paying twice.
  const inFlight = new Map<string, Promise<Awaited<ReturnType<Rail['execute']>>>>();

  function started(): Promise<SolanaSandbox> {
    sandbox ??= startSandbox(seed);
    return sandbox;
  }

  function serial<T>(task: () => Promise<T>): Promise<T> {
    const run = queue.then(task, task);
    queue = run.catch(() => undefined);
    return run;
  }

  async function unavailableReason(): Promise<string | undefined> {
    try {
      await started();
      return undefined;
    } catch (error) {
      return `The Solana sandbox (LiteSVM) cannot start on this machine: ${(error as Error).message}`;
    }
  }

  async function transfer(payment: RailPayment): Promise<NewOperation> {
    const reason = await unavailableReason();
    if (reason) throw new AppError('RAIL_UNAVAILABLE', reason);
    const chain = await started();
    return serial(async () => {
      const { svm, treasury } = chain;
      if ((svm.getBalance(treasury.address) ?? 0n) < TREASURY_LOW_WATER) svm.airdrop(treasury.address, lamports(TREASURY_AIRDROP));

      const mint = chain.mints[payment.currency];
      const source = chain.treasuryAccounts[payment.currency];
      const { destination, derived } = destinationOf(payment);
      const [tokenAccount] = await findAssociatedTokenPda({ owner: destination, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
      const memo = `purser:${payment.intentId}`;

      const instructions: Instruction[] = [];
      if (tokenBalance(svm, source) < payment.amount) {
        instructions.push(getMintToInstruction({ mint, token: source, mintAuthority: treasury, amount: payment.amount + TREASURY_MINT_BATCH }));
      }
      instructions.push(
        getCreateAssociatedTokenIdempotentInstruction({ payer: treasury, ata: tokenAccount, owner: destination, mint }),
        getTransferCheckedInstruction({ source, mint, destination: tokenAccount, authority: treasury, amount: payment.amount, decimals: DECIMALS }),
        memoInstruction(treasury, memo),
      );
      const sent = await send(svm, treasury, instructions);

      const details = {
        network: 'solana sandbox (LiteSVM, in-process)',
        signature: sent.signature,
        slot: svm.getClock().slot.toString(),
        mint,
        source,
        destination,
        destinationDerived: derived,
        tokenAccount,
        memo,
        amount: payment.amount.toString(),
        currency: payment.currency,
        computeUnits: Number(sent.computeUnits),
      };
      if (sent.error) {
        return {
          reference: sent.signature,
          status: 'declined',
          declineCode: 'transaction_failed',
          declineMessage: `The Solana transaction failed: ${sent.error}`,
          details,
        };
      }
      return { reference: sent.signature, status: 'settled', settledAt: now(), details };
    });
  }

  const rail: SolanaRail = {
    name: 'solana',
    sandbox: true,
    currencies: CURRENCIES,

    async quote() {
      const reason = await unavailableReason();
      // The network fee is paid in SOL by the sandbox treasury, not by the payer.
      return { rail: 'solana', available: !reason, ...(reason && { reason }), fee: 0n, estimatedSettlementMs: 0, sandbox: true };
    },

    execute(payment) {
      const running = inFlight.get(payment.intentId);
      if (running) return running;
      const run = recordOperationOnce(prisma, rail, payment.intentId, () => transfer(payment))
        .then(({ operation }) => toRailResult(operation))
        .finally(() => inFlight.delete(payment.intentId));
      inFlight.set(payment.intentId, run);
      return run;
    },

    async status(intentId) {
      return toRailResult(await readOperation(prisma, intentId, 'solana'));
    },

    async payeeBalance(owner, currency) {
      if (!isAddress(owner)) throw new AppError('BAD_REQUEST', `${owner} is not a Solana address`);
      const chain = await started();
      const [tokenAccount] = await findAssociatedTokenPda({ owner, mint: chain.mints[currency], tokenProgram: TOKEN_PROGRAM_ADDRESS });
      return tokenBalance(chain.svm, tokenAccount);
    },
  };
  return rail;
}

/**
 * The payee: toAddress when it is a Solana address (base58, 32 bytes); otherwise an address
 * derived from toAddress, the merchant or the intent, so the same payee always gets the same one.
 */
export function destinationOf(payment: Pick<RailPayment, 'intentId' | 'toAddress' | 'merchant'>): { destination: Address; derived: boolean } {
  if (payment.toAddress && isAddress(payment.toAddress)) return { destination: payment.toAddress, derived: false };
  const payee = payment.toAddress ?? (payment.merchant ? `merchant:${payment.merchant}` : `intent:${payment.intentId}`);
  const bytes = createHash('sha256').update(`purser/solana-sandbox/payee\n${payee}`).digest();
  return { destination: getAddressDecoder().decode(bytes), derived: true };
}

/** The chain, its treasury and one mint per currency, each created by a real transaction. */
async function startSandbox(seed: Uint8Array): Promise<SolanaSandbox> {
  // Loaded here, not at the top: a machine without LiteSVM's native binary loses this rail, not the server.
  const { LiteSVM } = await import('litesvm');
  const svm = new LiteSVM();
  const treasury = await signerFrom(seed, 'treasury');
  svm.airdrop(treasury.address, lamports(TREASURY_AIRDROP));

  const mints = {} as Record<Currency, Address>;
  const treasuryAccounts = {} as Record<Currency, Address>;
  const space = BigInt(getMintSize());
  for (const currency of CURRENCIES) {
    const mint = await signerFrom(seed, `mint:${currency}`);
    const [account] = await findAssociatedTokenPda({ owner: treasury.address, mint: mint.address, tokenProgram: TOKEN_PROGRAM_ADDRESS });
    const sent = await send(svm, treasury, [
      getCreateAccountInstruction({
        payer: treasury,
        newAccount: mint,
        lamports: svm.minimumBalanceForRentExemption(space),
        space,
        programAddress: TOKEN_PROGRAM_ADDRESS,
      }),
      getInitializeMint2Instruction({ mint: mint.address, decimals: DECIMALS, mintAuthority: treasury.address }),
      getCreateAssociatedTokenIdempotentInstruction({ payer: treasury, ata: account, owner: treasury.address, mint: mint.address }),
      getMintToInstruction({ mint: mint.address, token: account, mintAuthority: treasury, amount: TREASURY_MINT_BATCH }),
    ]);
    if (sent.error) throw new Error(`creating the sandbox ${currency} mint failed: ${sent.error}`);
    mints[currency] = mint.address;
    treasuryAccounts[currency] = account;
  }
  return { svm, treasury, mints, treasuryAccounts };
}

async function signerFrom(seed: Uint8Array, label: string): Promise<KeyPairSigner> {
  const privateKey = createHash('sha256').update(seed).update(`purser/solana-sandbox/${label}`).digest();
  return createKeyPairSignerFromPrivateKeyBytes(privateKey);
}

/** The SPL Memo program's instruction; its signer is the fee payer, whose signature the transaction carries anyway. */
function memoInstruction(signer: KeyPairSigner, memo: string): Instruction {
  return {
    programAddress: MEMO_PROGRAM_ADDRESS,
    accounts: [{ address: signer.address, role: AccountRole.READONLY_SIGNER }],
    data: new TextEncoder().encode(memo),
  };
}

function tokenBalance(svm: LiteSVM, account: Address): bigint {
  const found = svm.getAccount(account);
  return found.exists ? getTokenDecoder().decode(found.data).amount : 0n;
}

async function send(
  svm: LiteSVM,
  feePayer: KeyPairSigner,
  instructions: Instruction[],
): Promise<{ signature: string; computeUnits: bigint; error?: string }> {
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(feePayer, m),
    (m) => svm.setTransactionMessageLifetimeUsingLatestBlockhash(m),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  const transaction = await signTransactionMessageWithSigners(message);
  const signature = getSignatureFromTransaction(transaction);
  const result = svm.sendTransaction(transaction);
  if ('err' in result) {
    // toString() reads "FailedTransactionMetadata { err: <error>, meta: ... }"; the error is the useful part.
    const text = result.toString();
    return { signature, computeUnits: result.meta().computeUnitsConsumed(), error: /err: (.*?), meta: /.exec(text)?.[1] ?? text };
  }
  return { signature, computeUnits: result.computeUnitsConsumed() };
}
