import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { jsonParse } from 'n8n-workflow';
import { idempotencyKeyFor, type KeyDerivation } from '../../shared/idempotency';
import {
	categoryOption,
	descriptionOption,
	idempotencyKeyOption,
	ItemWithBinary,
	keyDerivationOption,
	type OperationExecute,
} from '../../shared/operation';
import { inNodeTerms } from '../../shared/nodeWording';
import { DEFAULT_WAIT_SECONDS, MAX_WAIT_SECONDS, PAYMENT_STATUSES, waitForFinalStatus } from '../../shared/paymentStatus';
import { purserApiRequest } from '../../shared/transport';

const showOnlyForFetch = { resource: ['paidRequest'], operation: ['fetch'] };

/** Pays a seller in whichever protocol it speaks, x402 or MPP; /x402/fetch is its first name. */
const FETCH_PATH = '/pay/fetch';
/**
 * What a derived idempotency key is computed over: the endpoint's first name, so a key derived
 * before the move to /pay/fetch (a payment waiting for approval across an upgrade) stays the
 * same. Purser answers both names from one store of keys.
 */
const FETCH_KEY_PATH = '/x402/fetch';
/** URL, method, headers and body: what Fetch and Get Price both send to the seller. */
const showForRequest = { resource: ['paidRequest'], operation: ['fetch', 'getPrice'] };

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
		displayOptions: { show: showForRequest },
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
		displayOptions: { show: showForRequest },
	},
	{
		displayName: 'Headers',
		name: 'headers',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Header',
		default: {},
		description: 'Headers to send to the seller',
		displayOptions: { show: showForRequest },
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
		displayOptions: { show: { ...showForRequest, method: ['DELETE', 'PATCH', 'POST', 'PUT'] } },
	},
	{
		displayName: 'Wait Until Final',
		name: 'waitUntilFinal',
		type: 'boolean',
		default: true,
		description:
			'Whether to answer only once the payment is final (payment.status settled or failed), waiting up to Options → Wait Up To (Seconds). Off, the node answers as soon as the seller has answered, while payment.status may still be processing.',
		displayOptions: { show: showOnlyForFetch },
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show: showOnlyForFetch },
		options: [
			categoryOption,
			descriptionOption,
			keyDerivationOption,
			idempotencyKeyOption,
			{
				displayName: 'Wait Up To (Seconds)',
				name: 'waitSeconds',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: MAX_WAIT_SECONDS },
				default: DEFAULT_WAIT_SECONDS,
				description:
					'With Wait Until Final: how long to wait for the payment to become final. If it is not final by then, the node answers with payment.status as it stands.',
			},
			{
				displayName: 'Put File in Field',
				name: 'binaryPropertyName',
				type: 'string',
				default: 'data',
				description: 'The binary field that receives the seller’s answer when it is a file',
			},
			{
				displayName: 'Response Format',
				name: 'responseFormat',
				type: 'options',
				options: [
					{
						name: 'Autodetect',
						value: 'autodetect',
						description: 'Text and JSON stay in the JSON output (JSON parsed as data); images, PDFs and other files become binary data',
					},
					{
						name: 'File',
						value: 'file',
						description: 'The seller’s answer always becomes binary data',
					},
				],
				default: 'autodetect',
			},
		],
	},
];

interface FetchOptions {
	binaryPropertyName?: string;
	category?: string;
	description?: string;
	idempotencyKey?: string;
	keyDerivation?: KeyDerivation;
	responseFormat?: 'autodetect' | 'file';
	waitSeconds?: number;
}

interface UpstreamFields {
	url: string;
	method: string;
	headers: Array<{ name?: string; value?: string }>;
	body: string;
}

/** The seller's request, as POST /x402/requirements takes it; empty fields are left out. */
export function upstreamRequestBody(fields: UpstreamFields): IDataObject {
	const body: IDataObject = { url: fields.url.trim(), method: fields.method };
	const headers: IDataObject = {};
	for (const { name, value } of fields.headers) {
		if (name?.trim()) headers[name.trim()] = value ?? '';
	}
	if (Object.keys(headers).length > 0) body.headers = headers;
	if (fields.body !== '' && fields.method !== 'GET' && fields.method !== 'HEAD') body.body = fields.body;
	return body;
}

/** URL, method, headers and body of the item, as the node's fields give them. */
export function upstreamFields(this: IExecuteFunctions, itemIndex: number): UpstreamFields {
	const method = this.getNodeParameter('method', itemIndex) as string;
	return {
		url: this.getNodeParameter('url', itemIndex) as string,
		method,
		headers: this.getNodeParameter('headers.header', itemIndex, []) as UpstreamFields['headers'],
		body: method === 'GET' || method === 'HEAD' ? '' : (this.getNodeParameter('body', itemIndex, '') as string),
	};
}

/** The body of POST /pay/fetch: the seller's request, the price cap, and what the payment is for. */
export function fetchBody(fields: UpstreamFields & { maxAmount: number; options: FetchOptions }): IDataObject {
	const body: IDataObject = { ...upstreamRequestBody(fields), max_amount: fields.maxAmount };
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

/** The seller's content type without parameters, e.g. `image/png`; empty when it sent none. */
function mimeTypeOf(headers: IDataObject): string {
	return String(headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}

/**
 * The file name the seller gave (Content-Disposition), else the last segment of the URL's path;
 * undefined when neither names one.
 */
export function sellerFileName(headers: IDataObject, url: string): string | undefined {
	const disposition = String(headers['content-disposition'] ?? '');
	const encoded = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(disposition)?.[1];
	if (encoded) {
		try {
			return decodeURIComponent(encoded.trim());
		} catch {
			// A malformed escape: fall back to the plain filename.
		}
	}
	const plain = /filename\s*=\s*(?:"([^"]*)"|([^;\s]+))/.exec(disposition);
	const named = (plain?.[1] ?? plain?.[2])?.trim();
	if (named) return named;
	try {
		const segment = new URL(url).pathname.split('/').pop();
		return segment ? decodeURIComponent(segment) : undefined;
	} catch {
		return undefined;
	}
}

/**
 * Purser's 202: the payment waits (for the owner, as a rule) and the seller has not been called
 * with it. The output says where the payment stands in `payment`, as when the seller answered,
 * with the price asked; the API's header fields, empty here, are left out.
 */
function waitingOutput(answer: IDataObject, idempotencyKey: string): IDataObject {
	const status = String(answer.status ?? '');
	return {
		payment: { intent_id: answer.intent_id ?? null, status, transaction_hash: null },
		amount: answer.amount ?? null,
		amount_exact: answer.amount_exact ?? null,
		pay_to: answer.pay_to ?? null,
		message: PAYMENT_STATUSES[status]?.message ?? inNodeTerms(String(answer.message ?? '')),
		idempotency_key: idempotencyKey,
	};
}

/**
 * Wait Until Final: the seller has answered and the chain has confirmed the payment, whose
 * status is `processing` until Purser has recorded it. Reads it until it is final, within the
 * wait the user chose. A payment through a channel (channel_voucher) is the channel's, which
 * stays open for many calls: nothing to wait for.
 */
async function finalPayment(this: IExecuteFunctions, answer: IDataObject, itemIndex: number, options: FetchOptions): Promise<IDataObject | null> {
	const payment = (answer.payment ?? null) as IDataObject | null;
	if (!payment || answer.channel_voucher || typeof payment.intent_id !== 'string' || typeof payment.status !== 'string') return payment;
	if (!(this.getNodeParameter('waitUntilFinal', itemIndex, true) as boolean)) return payment;
	const waitSeconds = Math.min(Math.max(Number(options.waitSeconds ?? DEFAULT_WAIT_SECONDS) || DEFAULT_WAIT_SECONDS, 1), MAX_WAIT_SECONDS);
	const status = await waitForFinalStatus.call(this, payment.intent_id, { status: payment.status, waitSeconds, itemIndex });
	return { ...payment, status };
}

/**
 * POST /pay/fetch: calls the URL, and when it answers 402 pays at most Max Price, in x402 or MPP
 * as the seller asks, and calls it again. 200 carries the seller's answer and the payment, whose
 * `protocol` says which (`mpp_receipt` holds an MPP seller's receipt); 202 means the owner must
 * approve. With Wait Until Final the node answers once the payment is final.
 * Text and JSON stay in the JSON output; any other answer (an image, a PDF) becomes n8n binary
 * data with the seller's bytes, MIME type and file name.
 */
export const fetch: OperationExecute = async function (itemIndex, run) {
	const options = this.getNodeParameter('options', itemIndex, {}) as FetchOptions;
	const upstream = upstreamFields.call(this, itemIndex);
	const body = fetchBody({ ...upstream, maxAmount: this.getNodeParameter('maxAmount', itemIndex) as number, options });
	const idempotencyKey = idempotencyKeyFor.call(this, {
		itemIndex,
		given: options.idempotencyKey ?? '',
		derivation: options.keyDerivation ?? 'request',
		path: FETCH_KEY_PATH,
		body,
		occurrences: run.occurrences,
	});
	const { statusCode, body: answer } = await purserApiRequest.call(this, {
		method: 'POST',
		path: FETCH_PATH,
		body,
		idempotencyKey,
		// Two calls to the seller (up to 15 s each) around the payment.
		timeoutMs: 90_000,
		itemIndex,
	});
	if (statusCode !== 200 || typeof answer.body !== 'string') return waitingOutput(answer, idempotencyKey);
	if (answer.payment) answer.payment = await finalPayment.call(this, answer, itemIndex, options);
	const asFile = answer.body_encoding === 'base64' || options.responseFormat === 'file';
	if (!asFile) {
		const data = sellerJson(answer);
		return { ...answer, ...(data === undefined ? {} : { data: data as IDataObject }), idempotency_key: idempotencyKey };
	}
	const headers = (answer.headers ?? {}) as IDataObject;
	const bytes = Buffer.from(answer.body as string, answer.body_encoding === 'base64' ? 'base64' : 'utf8');
	const binary = await this.helpers.prepareBinaryData(bytes, sellerFileName(headers, upstream.url.trim()), mimeTypeOf(headers) || 'application/octet-stream');
	// The bytes are in the binary field; the JSON keeps the rest of the answer.
	const rest: IDataObject = { ...answer };
	delete rest.body;
	const field = options.binaryPropertyName?.trim() || 'data';
	return new ItemWithBinary(
		{ ...rest, idempotency_key: idempotencyKey, file: { field, file_name: binary.fileName ?? null, mime_type: binary.mimeType, size: bytes.length } },
		{ [field]: binary },
	);
};
