import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { idempotencyKeyFor, type KeyDerivation } from '../../shared/idempotency';
import { jsonObjectParameter } from '../../shared/jsonObject';
import {
	categoryOption,
	descriptionOption,
	idempotencyKeyOption,
	keyDerivationOption,
	type OperationExecute,
} from '../../shared/operation';
import { withStatusMessage } from '../../shared/paymentStatus';
import { purserApiRequest } from '../../shared/transport';

const showOnlyForCreate = { resource: ['payment'], operation: ['create'] };

/** The currencies and rails Purser's POST /payment accepts (x402 has its own operation). */
export const PAYMENT_CURRENCIES = ['USDC', 'USDT'] as const;
export const PAYMENT_RAILS = ['ledger', 'solana', 'card', 'bank'] as const;

export const createDescription: INodeProperties[] = [
	{
		displayName: 'Amount',
		name: 'amount',
		type: 'number',
		typeOptions: { minValue: 0.000001, numberPrecision: 6 },
		default: 0,
		required: true,
		description: 'How many dollars to pay, with at most 6 decimals',
		displayOptions: { show: showOnlyForCreate },
	},
	{
		displayName: 'To Address',
		name: 'toAddress',
		type: 'string',
		default: '',
		required: true,
		placeholder: '0x000000000000000000000000000000000000dEaD',
		description:
			'Who is paid: an address or account ID, up to 200 characters. The address of another agent’s wallet pays that agent inside Purser.',
		displayOptions: { show: showOnlyForCreate },
	},
	{
		displayName: 'Currency',
		name: 'currency',
		type: 'options',
		options: PAYMENT_CURRENCIES.map((currency) => ({ name: currency, value: currency })),
		default: 'USDC',
		displayOptions: { show: showOnlyForCreate },
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show: showOnlyForCreate },
		options: [
			{
				displayName: 'Budget (Session ID)',
				name: 'sessionId',
				type: 'string',
				default: '',
				placeholder: '={{ $json.session_id }}',
				description:
					'Charge the payment to an open budget: its session ID, as Budget → Request or Budget → Get answered it. The payment must fit what is left of the budget, its cap per payment and its scope, on top of the agent’s spending rules.',
			},
			categoryOption,
			descriptionOption,
			keyDerivationOption,
			idempotencyKeyOption,
			{
				displayName: 'Metadata',
				name: 'metadata',
				type: 'json',
				default: '{}',
				description: 'A JSON object of your own references, e.g. an order ID; up to 8 KiB',
			},
			{
				displayName: 'Rail',
				name: 'rail',
				type: 'options',
				options: [
					{ name: 'Bank (Sandbox)', value: 'bank' },
					{ name: 'Card (Sandbox)', value: 'card' },
					{ name: 'Ledger', value: 'ledger', description: 'A transfer inside Purser' },
					{ name: 'Solana (Sandbox)', value: 'solana' },
				],
				default: 'ledger',
				description: 'How the money moves',
			},
		],
	},
];

export interface PaymentOptions {
	category?: string;
	description?: string;
	idempotencyKey?: string;
	keyDerivation?: KeyDerivation;
	metadata?: IDataObject | string;
	rail?: string;
	/** Budget (Session ID): the payment session the payment is charged to. */
	sessionId?: string;
}

/** The body of POST /payment; empty options are left out so Purser's defaults apply. */
export function paymentBody(fields: {
	amount: number;
	toAddress: string;
	currency: string;
	options: PaymentOptions;
	metadata: IDataObject;
}): IDataObject {
	const body: IDataObject = {
		amount: fields.amount,
		currency: fields.currency,
		to_address: fields.toAddress.trim(),
	};
	const { category, description, rail, sessionId } = fields.options;
	if (category?.trim()) body.category = category.trim();
	if (description?.trim()) body.description = description.trim();
	if (rail) body.rail = rail;
	if (Object.keys(fields.metadata).length > 0) body.metadata = fields.metadata;
	if (sessionId?.trim()) body.session_id = sessionId.trim();
	return body;
}

/**
 * POST /payment: settled (200), waiting for the owner or a slow rail (202), or an error. Sent
 * again with the same key, it answers where the first payment stands and never pays again.
 * `message` says what the status means, in the node's words.
 */
export const create: OperationExecute = async function (itemIndex, run) {
	const options = this.getNodeParameter('options', itemIndex, {}) as PaymentOptions;
	const body = paymentBody({
		amount: this.getNodeParameter('amount', itemIndex) as number,
		toAddress: this.getNodeParameter('toAddress', itemIndex) as string,
		currency: this.getNodeParameter('currency', itemIndex) as string,
		options,
		metadata: jsonObjectParameter.call(this, options.metadata ?? {}, 'Metadata', itemIndex),
	});
	const idempotencyKey = idempotencyKeyFor.call(this, {
		itemIndex,
		given: options.idempotencyKey ?? '',
		derivation: options.keyDerivation ?? 'request',
		path: '/payment',
		body,
		occurrences: run.occurrences,
	});
	const { body: payment } = await purserApiRequest.call(this, {
		method: 'POST',
		path: '/payment',
		body,
		idempotencyKey,
		// Purser waits up to 30 s for the outcome before it answers 202.
		timeoutMs: 60_000,
		itemIndex,
	});
	return { ...withStatusMessage(payment), idempotency_key: idempotencyKey };
};
