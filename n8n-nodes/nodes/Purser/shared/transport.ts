/**
 * Every call of the node to the Purser agent API goes through here: the credential adds the
 * agent's two headers, Purser's `{ error: { code, message } }` answers become NodeApiErrors
 * with the item they belong to, and the node chooses how long a call may take.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

export const CREDENTIAL_TYPE = 'purserApi';

/** Where the agent API lives below the deployment's base URL. */
export const AGENT_API_PATH = '/functions/v1/mcp-server';

export interface PurserRequest {
	method: IHttpRequestMethods;
	/** Below AGENT_API_PATH, e.g. `/payment`. */
	path: string;
	body?: IDataObject;
	idempotencyKey?: string;
	/** POST /payment waits up to 30 s for the outcome; /x402/fetch calls the seller twice. */
	timeoutMs: number;
	itemIndex: number;
}

export interface PurserResponse {
	statusCode: number;
	body: IDataObject;
}

/** What to do about an error code, for the person reading the failed execution. */
const HINTS: Record<string, string> = {
	UNAUTHORIZED: 'Check the agent DID and API key in the Purser credential; a rotated key stops working at once.',
	AGENT_SUSPENDED: 'The agent is suspended or deleted; its owner can reactivate it in Purser.',
	IDEMPOTENCY_CONFLICT:
		'This idempotency key was already used for a different request. Use a new key for a new payment.',
	INSUFFICIENT_FUNDS: 'The agent’s balance is too low; its owner can fund it in Purser.',
	POLICY_VIOLATION: 'A spending rule or policy refused the payment. Nothing moved.',
	RATE_LIMITED: 'Too many calls this minute. Retrying with the same idempotency key is safe.',
	UNAVAILABLE: 'Nothing was paid. Retrying with the same idempotency key is safe.',
};

function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export async function purserApiRequest(
	this: IExecuteFunctions,
	request: PurserRequest,
): Promise<PurserResponse> {
	const credentials = await this.getCredentials(CREDENTIAL_TYPE, request.itemIndex);
	const baseUrl = String(credentials.baseUrl ?? '').replace(/\/+$/, '');
	const options: IHttpRequestOptions = {
		method: request.method,
		url: `${baseUrl}${AGENT_API_PATH}${request.path}`,
		json: true,
		timeout: request.timeoutMs,
		// Purser's error bodies carry the reason; read them instead of a generic HTTP error.
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
	};
	if (request.body) options.body = request.body;
	if (request.idempotencyKey) options.headers = { 'Idempotency-Key': request.idempotencyKey };

	let response: IN8nHttpFullResponse;
	try {
		response = (await this.helpers.httpRequestWithAuthentication.call(
			this,
			CREDENTIAL_TYPE,
			options,
		)) as IN8nHttpFullResponse;
	} catch (error) {
		// No answer at all (refused, reset, timed out): whether a payment happened is unknown, so
		// the only safe next step is the same request with the same key.
		throw new NodeApiError(this.getNode(), error as JsonObject, {
			itemIndex: request.itemIndex,
			message: `Purser did not answer ${request.method} ${request.path}`,
			description:
				'Retrying with the same idempotency key is safe: Purser never pays twice for one key.',
		});
	}

	const body = isObject(response.body) ? response.body : { body: response.body as string };
	if (response.statusCode >= 400) {
		const error = isObject(body.error) ? body.error : {};
		const code = typeof error.code === 'string' ? error.code : `HTTP_${response.statusCode}`;
		const message = typeof error.message === 'string' ? error.message : 'Purser refused the request';
		throw new NodeApiError(this.getNode(), body as JsonObject, {
			itemIndex: request.itemIndex,
			httpCode: String(response.statusCode),
			message: `${code}: ${message}`,
			description: HINTS[code],
		});
	}
	return { statusCode: response.statusCode, body };
}
