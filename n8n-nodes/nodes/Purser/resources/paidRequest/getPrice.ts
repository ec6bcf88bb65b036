import type { IDataObject, INodeProperties } from 'n8n-workflow';
import type { OperationExecute } from '../../shared/operation';
import { purserApiRequest } from '../../shared/transport';
import { upstreamFields, upstreamRequestBody } from './fetch';

/** Get Price has no fields of its own: it asks the seller with Fetch's URL, method, headers and body. */
export const getPriceDescription: INodeProperties[] = [];

/** USDC, the asset of the requirement Purser recommends, has 6 decimals. */
const USDC_DECIMALS = 6;

/** Atomic units ("10000") as an exact decimal string of dollars ("0.01"). */
export function dollarsOf(atomic: string): string {
	const digits = atomic.replace(/^0+(?=\d)/, '').padStart(USDC_DECIMALS + 1, '0');
	const whole = digits.slice(0, -USDC_DECIMALS);
	const fraction = digits.slice(-USDC_DECIMALS).replace(/0+$/, '');
	return fraction ? `${whole}.${fraction}` : whole;
}

/**
 * POST /x402/requirements: calls the URL without paying and reads its 402 answer: whether it
 * asks for payment, every payment it accepts, and the one Purser would pay. `price` is that
 * one's price in dollars, to compare with a budget before Fetch pays it.
 */
export const getPrice: OperationExecute = async function (itemIndex) {
	const { body } = await purserApiRequest.call(this, {
		method: 'POST',
		path: '/x402/requirements',
		body: upstreamRequestBody(upstreamFields.call(this, itemIndex)),
		timeoutMs: 30_000,
		itemIndex,
	});
	const recommended = (body.recommended ?? null) as IDataObject | null;
	const atomic = recommended ? (recommended.amount ?? recommended.maxAmountRequired) : undefined;
	const price = typeof atomic === 'string' && /^\d+$/.test(atomic) ? dollarsOf(atomic) : null;
	return { ...body, price, price_amount: price === null ? null : Number(price) };
};
