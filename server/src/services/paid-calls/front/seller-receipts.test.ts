import { createOfferEIP712, createReceiptEIP712, OFFER_RECEIPT, type EIP712SignedReceipt } from '@x402/extensions/offer-receipt';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { checkSellerReceipt, offerSigner, receiptInPaymentResponse, type PaidFacts } from './seller-receipts';

const seller = privateKeyToAccount(generatePrivateKey());
const stranger = privateKeyToAccount(generatePrivateKey());
const agent = privateKeyToAccount(generatePrivateKey());
const RESOURCE = 'https://seller.example/metered';
const TRANSACTION = `0x${'ab'.repeat(32)}`;
const NETWORK = 'eip155:84532';

const signWith = (account: typeof seller) => ((message: Parameters<typeof seller.signTypedData>[0]) => account.signTypedData(message)) as never;

function receipt(overrides: Partial<{ payer: string; network: string; resourceUrl: string; transaction: string }> = {}, signer = seller) {
  return createReceiptEIP712({ resourceUrl: RESOURCE, payer: agent.address, network: NETWORK, transaction: TRANSACTION, ...overrides }, signWith(signer));
}

const facts: PaidFacts = { payer: agent.address, network: NETWORK, resourceUrl: RESOURCE, transaction: TRANSACTION, offerSigner: seller.address };

describe('checkSellerReceipt', () => {
  it('verifies a receipt signed by the offer\'s signer that names this payment', async () => {
    const checked = await checkSellerReceipt(await receipt(), facts);
    expect(checked).toMatchObject({ format: 'eip712', verified: true, problems: [], signer: seller.address, claims: { payer: agent.address, transaction: TRANSACTION } });
  });

  it('keeps, unverified and with every reason, a receipt that does not match the payment', async () => {
    const cases: [Awaited<ReturnType<typeof receipt>>, string][] = [
      [await receipt({ payer: stranger.address }), 'not the agent'],
      [await receipt({ network: 'eip155:8453' }), 'network eip155:8453'],
      [await receipt({ resourceUrl: 'https://seller.example/other' }), 'resource https://seller.example/other'],
      [await receipt({ transaction: `0x${'cd'.repeat(32)}` }), 'transaction 0xcdcd'],
      [await receipt({}, stranger), 'who signed the offer'],
    ];
    for (const [sent, reason] of cases) {
      const checked = await checkSellerReceipt(sent, facts);
      expect(checked.verified, reason).toBe(false);
      expect(checked.problems.join('; ')).toContain(reason);
    }
  });

  it('refuses a receipt edited after signing, and one too old to be about this payment', async () => {
    const signed = (await receipt()) as EIP712SignedReceipt;
    const edited = { ...signed, payload: { ...signed.payload, payer: stranger.address } };
    const checked = await checkSellerReceipt(edited, { ...facts, payer: stranger.address });
    expect(checked.verified).toBe(false);
    expect(checked.problems.join('; ')).toContain('who signed the offer');
    const old = await createReceiptEIP712({ resourceUrl: RESOURCE, payer: agent.address, network: NETWORK, transaction: TRANSACTION }, signWith(seller));
    const aged = { ...old, payload: { ...(old as EIP712SignedReceipt).payload, issuedAt: Math.floor(Date.now() / 1000) - 7_200 } };
    expect((await checkSellerReceipt(aged, { ...facts, offerSigner: null })).verified).toBe(false);
  });

  it('does not resolve a JWS key that would have to be fetched', async () => {
    const header = Buffer.from(JSON.stringify({ alg: 'ES256', kid: 'did:web:seller.example#key-1' })).toString('base64url');
    const checked = await checkSellerReceipt({ format: 'jws', signature: `${header}.e30.c2ln` }, facts);
    expect(checked.verified).toBe(false);
    expect(checked.problems.join('; ')).toContain('did:web');
  });
});

describe('offerSigner and receiptInPaymentResponse', () => {
  it('reads who signed the offer for the resource, and the receipt in a PAYMENT-RESPONSE', async () => {
    const offer = await createOfferEIP712(RESOURCE, { acceptIndex: 0, scheme: 'upto', network: NETWORK, asset: agent.address, payTo: seller.address, amount: '1000000' }, signWith(seller));
    const extensions = { [OFFER_RECEIPT]: { info: { offers: [offer] } } };
    expect(await offerSigner(extensions, RESOURCE)).toBe(seller.address);
    expect(await offerSigner(extensions, 'https://seller.example/other')).toBeNull();
    const sent = await receipt();
    expect(receiptInPaymentResponse({ success: true, extensions: { [OFFER_RECEIPT]: { info: { receipt: sent } } } })).toEqual(sent);
    expect(receiptInPaymentResponse({ success: true, extensions: { [OFFER_RECEIPT]: { info: { receipt: { format: 'eip712' } } } } })).toBeNull();
  });
});
