import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { jsonParse } from 'n8n-workflow';
import { idempotencyKeyFor } from '../../shared/idempotency';
import {
	categoryOption,
	descriptionOption,
	idempotencyKeyOption,
	type OperationExecute,
} from '../../shared/operation';
import { purserApiRequest } from '../../shared/transport';

const showOnlyForFetch = { resource: ['paidRequest'], operation: ['fetch'] };

export const HTTP_METHODS = ['DELETE', 'GET', 'HEAD', 'PATCH', 'POST', 'PUT'] as const;

export const fetchDescription: INodeProperties[] = [
	{
		displayName: 'URL',
		name: 'url',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'https://api.example.com/paid/report',
		description: 'The absolute http:// or https:// URL to fetch',
		displayOptions: { show: showOnlyForFetch },
	},
	{
		displayName: 'Max Price',
		name: 'maxAmount',
		type: 'number',
		typeOptions: { minValue: 0.000001, numberPrecision: 6 },
		default: 0.1,
		required: true,
		description:
			'The most this request may cost, in dollars. A seller asking more is refused and nothing is paid.',
		displayOptions: { show: showOnlyForFetch },
	},
	{
		displayName: 'Method',
		name: 'method',
		type: 'options',
		options: HTTP_METHODS.map((method) => ({ name: method, value: method })),
		default: 'GET',
		displayOptions: { show: showOnlyForFetch },
	},
	{
		displayName: 'Headers',
		name: 'headers',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Header',
		default: {},
		description: 'Headers to send to the seller',
		displayOptions: { show: showOnlyForFetch },
		options: [
			{
				displayName: 'Header',
				name: 'header',
				values: [
					{ displayName: 'Name', name: 'name', type: 'string', default: '' },
					{ displayName: 'Value', name: 'value', type: 'string', default: '' },
				],
			},
		],
	},
	{
		displayName: 'Body',
		name: 'body',
		type: 'string',
		typeOptions: { rows: 4 },
		default: '',
		description: 'The request body as text, up to 512 KiB; encode JSON yourself',
		displayOptions: { show: { ...showOnlyForFetch, method: ['DELETE', 'PATCH', 'POST', 'PUT'] } },
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show: showOnlyForFetch },
		options: [categoryOption, descriptionOption, idempotencyKeyOption],
	},
];

interface FetchOptions {
	category?: string;
	description?: string;
	idempotencyKey?: string;
}

/** The body of POST /x402/fetch; empty fields are left out so Purser's defaults apply. */
export function fetchBody(fields: {
	url: string;
	maxAmount: number;
	method: string;
	headers: Array<{ name?: string; value?: string }>;
	body: string;
	options: FetchOptions;
}): IDataObject {
	const body: IDataObject = {
		url: fields.url.trim(),
		method: fields.method,
		max_amount: fields.maxAmount,
	};
	const headers: IDataObject = {};
	for (const { name, value } of fields.headers) {
		if (name?.trim()) headers[name.trim()] = value ?? '';
	}
	if (Object.keys(headers).length > 0) body.headers = headers;
	if (fields.body !== '' && fields.method !== 'GET' && fields.method !== 'HEAD') body.body = fields.body;
	const { category, description } = fields.options;
	if (category?.trim()) body.category = category.trim();
	if (description?.trim()) body.description = description.trim();
	return body;
}

const NOT_JSON = Symbol('not JSON');

/** The seller's JSON body, parsed, when it sent one; undefined otherwise. */
export function sellerJson(answer: IDataObject): unknown {
	const headers = (answer.headers ?? {}) as IDataObject;
	const contentType = String(headers['content-type'] ?? '');
	if (answer.body_encoding !== 'utf8' || typeof answer.body !== 'string' || !/\bjson\b/i.test(contentType)) {
		return undefined;
	}
	const parsed = jsonParse<unknown>(answer.body, { fallbackValue: NOT_JSON });
	return parsed === NOT_JSON ? undefined : parsed;
}

/**
 * POST /x402/fetch: calls the URL, and when it answers 402 pays at most Max Price and calls it
 * again. 200 carries the seller's answer and the payment; 202 means the owner must approve.
 */
export const fetch: OperationExecute = async function (itemIndex) {
	const options = this.getNodeParameter('options', itemIndex, {}) as FetchOptions;
	const headers = this.getNodeParameter('headers.header', itemIndex, []) as Array<{
		name?: string;
		value?: string;
	}>;
	const method = this.getNodeParameter('method', itemIndex) as string;
	const body = fetchBody({
		url: this.getNodeParameter('url', itemIndex) as string,
		maxAmount: this.getNodeParameter('maxAmount', itemIndex) as number,
		method,
		headers,
		body: method === 'GET' || method === 'HEAD' ? '' : (this.getNodeParameter('body', itemIndex, '') as string),
		options,
	});
	const idempotencyKey = idempotencyKeyFor.call(this, itemIndex, options.idempotencyKey ?? '');
	const { body: answer } = await purserApiRequest.call(this, {
		method: 'POST',
		path: '/x402/fetch',
		body,
		idempotencyKey,
		// Two calls to the seller (up to 15 s each) around the payment.
		timeoutMs: 90_000,
		itemIndex,
	});
	const data = sellerJson(answer);
	return { ...answer, ...(data === undefined ? {} : { data: data as IDataObject }), idempotency_key: idempotencyKey };
};
