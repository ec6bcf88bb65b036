/**
 * Every call of the Purser nodes goes through here. Two APIs, two credentials: the agent API
 * (`/functions/v1/mcp-server`, an agent's DID and key) for what an agent does, and the owner API
 * (`/api/v1`, an owner API key) for what only the owner may do: approve, grant budgets, suspend,
 * register webhooks. Purser's `{ error: { code, message } }` answers become NodeApiErrors with the item
 * they belong to, their messages in the node's words (nodeWording.ts), and each operation
 * chooses how long its call may take.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';
import { inNodeTerms } from './nodeWording';

export type PurserApiName = 'agent' | 'owner';

/** Each API's credential type and where it lives below the deployment's base URL. */
export const PURSER_APIS: Record<PurserApiName, { credentialType: string; path: string }> = {
	agent: { credentialType: 'purserApi', path: '/functions/v1/mcp-server' },
	owner: { credentialType: 'purserOwnerApi', path: '/api/v1' },
};

export interface PurserRequest {
	/** The agent API unless the operation is the owner's. */
	api?: PurserApiName;
	method: IHttpRequestMethods;
	/** Below the API's path, e.g. `/payment`. */
	path: string;
	query?: IDataObject;
	body?: IDataObject;
	idempotencyKey?: string;
	/** POST /payment waits up to 30 s for the outcome; /pay/fetch calls the seller twice. */
	timeoutMs: number;
	/** The item the call is for; absent in a trigger's activation. */
	itemIndex?: number;
}

export interface PurserResponse {
	statusCode: number;
	body: IDataObject;
}

/** What to do about an error code, for the person reading the failed execution. */
const HINTS: Record<string, string> = {
	UNAUTHORIZED:
		'Check the Purser credential: the agent DID and API key, or the owner API key (psk_…). A rotated or revoked key stops working at once.',
	API_KEY_EXPIRED: 'The owner API key (psk_…) has expired. Create a new one in Purser (API keys) and update the credential.',
	API_KEY_SCOPE_MISSING:
		'The owner API key (psk_…) lacks the scope this operation needs (the message names it). Create a key with read, payments:approve, agents:admin and webhooks:admin.',
	AGENT_SUSPENDED: 'The agent is suspended or deleted; its owner can reactivate it in Purser.',
	IDEMPOTENCY_CONFLICT:
		'This idempotency key was already used for a different request. Use a new key for a new payment.',
	INSUFFICIENT_FUNDS: 'The agent’s balance is too low; its owner can fund it in Purser.',
	NOT_FOUND: 'Purser has nothing by this ID for this credential. Check the ID, and that it belongs to this agent or owner.',
	POLICY_VIOLATION: 'A spending rule or policy refused the payment. Nothing moved.',
	RATE_LIMITED: 'Too many calls this minute. Retrying with the same idempotency key is safe.',
	SIGNATURE_REFUSED:
		'The owner’s policies refuse this host, so Purser signs nothing for it and sent nothing. The owner can change the policy in Purser.',
	UNAVAILABLE: 'Nothing was paid. Retrying with the same idempotency key is safe.',
	URL_NOT_ALLOWED: 'Purser does not send to this address (private and loopback hosts are refused outside the sandbox).',
};

/** A seller asking more than the node's Max Price: a refusal of the node's own making, not a policy's. */
const PRICE_CAP_HINT =
	'Nothing was paid. Raise Max Price to pay this seller, or read its price first with Paid Request → Get Price.';

/** A payment refused by the budget it named (SESSION_NOT_OPEN, SESSION_BUDGET_EXCEEDED, …), not by a spending rule. */
const BUDGET_HINT =
	'The budget named in Budget (Session ID) refused the payment: it is not open (waiting, rejected, spent, expired or revoked), or the payment does not fit what is left of it, its cap per payment or its scope. Nothing moved. Budget → Get shows where it stands.';

function hintFor(code: string, message: string): string | undefined {
	if (code === 'POLICY_VIOLATION' && message.includes('Max Price')) return PRICE_CAP_HINT;
	if (code === 'POLICY_VIOLATION' && /\(SESSION_[A-Z_]+;/.test(message)) return BUDGET_HINT;
	return HINTS[code];
}

function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The deployment's address from a credential, without a trailing slash. */
export function baseUrlOf(credentials: IDataObject): string {
	return String(credentials.baseUrl ?? '').replace(/\/+$/, '');
}

export async function purserApiRequest(
	this: IExecuteFunctions | IHookFunctions,
	request: PurserRequest,
): Promise<PurserResponse> {
	const api = PURSER_APIS[request.api ?? 'agent'];
	const credentials = await this.getCredentials(api.credentialType, request.itemIndex);
	const options: IHttpRequestOptions = {
		method: request.method,
		url: `${baseUrlOf(credentials)}${api.path}${request.path}`,
		json: true,
		timeout: request.timeoutMs,
		// Purser's error bodies carry the reason; read them instead of a generic HTTP error.
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
	};
	if (request.query) options.qs = request.query;
	if (request.body) options.body = request.body;
	if (request.idempotencyKey) options.headers = { 'Idempotency-Key': request.idempotencyKey };

	let response: IN8nHttpFullResponse;
	try {
		response = (await this.helpers.httpRequestWithAuthentication.call(
			this,
			api.credentialType,
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
		// In the node's words; the answer itself, in the API's, stays on the error for its details.
		const message = inNodeTerms(typeof error.message === 'string' ? error.message : 'Purser refused the request');
		throw new NodeApiError(this.getNode(), body as JsonObject, {
			itemIndex: request.itemIndex,
			httpCode: String(response.statusCode),
			message: `${code}: ${message}`,
			description: hintFor(code, message),
		});
	}
	return { statusCode: response.statusCode, body };
}
