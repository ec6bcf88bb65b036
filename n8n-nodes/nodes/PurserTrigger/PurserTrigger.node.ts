import type {
	IDataObject,
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
	JsonObject,
} from 'n8n-workflow';
import { jsonParse, NodeApiError, NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';
import { purserApiRequest } from '../Purser/shared/transport';
import { PURSER_EVENTS } from './events';
import { verifyDelivery, type DeliveryHeaders } from './verifySignature';

/** What activation keeps in the workflow's static data: the endpoint Purser knows, and its secret. */
interface RegisteredEndpoint extends IDataObject {
	endpointId?: string;
	secret?: string;
}

const NOT_JSON = Symbol('not JSON');

function sameEvents(registered: unknown, chosen: string[]): boolean {
	return Array.isArray(registered) && [...registered].sort().join() === [...chosen].sort().join();
}

function isNotFound(error: unknown): boolean {
	return error instanceof NodeApiError && error.httpCode === '404';
}

function chosenEvents(this: IHookFunctions | IWebhookFunctions): string[] {
	return this.getNodeParameter('events', []) as string[];
}

/**
 * Starts a workflow on Purser's events. Activating the workflow registers this node's URL with
 * Purser for the chosen events (owner API, POST /webhooks) and keeps the endpoint's signing
 * secret; deactivating it deletes the endpoint. Every delivery's Standard Webhooks signature is
 * checked against that secret before anything runs: a forged or replayed delivery is answered
 * 401 and starts nothing.
 */
export class PurserTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Purser Trigger',
		name: 'purserTrigger',
		icon: { light: 'file:../../icons/purser.svg', dark: 'file:../../icons/purser.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["events"].join(", ")}}',
		description: 'Starts the workflow when Purser reports a payment event: created, approved, settled, refused by a policy, or a budget threshold reached',
		defaults: { name: 'Purser Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'purserOwnerApi', required: true }],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				path: 'webhook',
			},
		],
		properties: [
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				options: PURSER_EVENTS,
				default: ['settlement.completed'],
				required: true,
				description: 'The events that start the workflow; each starts it once, with the event as the item',
			},
		],
	};

	webhookMethods = {
		default: {
			/** True when Purser still has this workflow's endpoint, at this URL, for these events. */
			async checkExists(this: IHookFunctions): Promise<boolean> {
				const registered = this.getWorkflowStaticData('node') as RegisteredEndpoint;
				if (!registered.endpointId || !registered.secret) return false;
				let endpoint: IDataObject;
				try {
					({ body: endpoint } = await purserApiRequest.call(this, {
						api: 'owner',
						method: 'GET',
						path: `/webhooks/${registered.endpointId}`,
						timeoutMs: 30_000,
					}));
				} catch (error) {
					if (!isNotFound(error)) throw new NodeApiError(this.getNode(), error as JsonObject);
					delete registered.endpointId;
					delete registered.secret;
					return false;
				}
				const current =
					endpoint.url === this.getNodeWebhookUrl('default') && endpoint.enabled === true && sameEvents(endpoint.events, chosenEvents.call(this));
				if (current) return true;
				// Registered for another URL or other events: replace it rather than receive the wrong ones.
				await purserApiRequest.call(this, { api: 'owner', method: 'DELETE', path: `/webhooks/${registered.endpointId}`, timeoutMs: 30_000 });
				delete registered.endpointId;
				delete registered.secret;
				return false;
			},

			/** Registers this node's URL with Purser and keeps the signing secret, shown only now. */
			async create(this: IHookFunctions): Promise<boolean> {
				const url = this.getNodeWebhookUrl('default');
				const events = chosenEvents.call(this);
				if (!url) throw new NodeOperationError(this.getNode(), 'n8n has no webhook URL for this node');
				if (events.length === 0) throw new NodeOperationError(this.getNode(), 'Choose at least one event');
				const { body } = await purserApiRequest.call(this, {
					api: 'owner',
					method: 'POST',
					path: '/webhooks',
					body: { url, events, description: `n8n: ${this.getWorkflow().name ?? 'workflow'} (${this.getNode().name})`.slice(0, 500) },
					timeoutMs: 30_000,
				});
				const endpoint = (body.endpoint ?? {}) as IDataObject;
				if (typeof endpoint.id !== 'string' || typeof body.secret !== 'string') {
					throw new NodeApiError(this.getNode(), body as JsonObject, { message: 'Purser registered the webhook without an ID or a secret' });
				}
				const registered = this.getWorkflowStaticData('node') as RegisteredEndpoint;
				registered.endpointId = endpoint.id;
				registered.secret = body.secret;
				return true;
			},

			/** Deletes the endpoint at Purser: no more deliveries, pending retries stop. */
			async delete(this: IHookFunctions): Promise<boolean> {
				const registered = this.getWorkflowStaticData('node') as RegisteredEndpoint;
				if (registered.endpointId) {
					try {
						await purserApiRequest.call(this, { api: 'owner', method: 'DELETE', path: `/webhooks/${registered.endpointId}`, timeoutMs: 30_000 });
					} catch (error) {
						// Already gone at Purser is what deleting wants.
						if (!isNotFound(error)) throw new NodeApiError(this.getNode(), error as JsonObject);
					}
				}
				delete registered.endpointId;
				delete registered.secret;
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const request = this.getRequestObject();
		const response = this.getResponseObject();
		const { secret } = this.getWorkflowStaticData('node') as RegisteredEndpoint;
		const rawBody = request.rawBody;
		const verification = secret
			? verifyDelivery({ secret, headers: request.headers as DeliveryHeaders, rawBody: rawBody ?? Buffer.alloc(0), nowSeconds: Math.floor(Date.now() / 1000) })
			: { valid: false as const, reason: 'This workflow has no registered Purser endpoint; activate it again' };
		if (!verification.valid) {
			response.status(401).json({ error: { code: 'INVALID_SIGNATURE', message: verification.reason } });
			return { noWebhookResponse: true };
		}
		const event = jsonParse<unknown>((rawBody ?? Buffer.alloc(0)).toString('utf8'), { fallbackValue: NOT_JSON });
		if (typeof event !== 'object' || event === null || Array.isArray(event)) {
			response.status(400).json({ error: { code: 'VALIDATION_FAILED', message: 'The body is not a JSON event' } });
			return { noWebhookResponse: true };
		}
		const type = (event as IDataObject).type;
		// Purser sends only the subscribed events; anything else is acknowledged and dropped.
		if (typeof type !== 'string' || !chosenEvents.call(this).includes(type)) {
			return { webhookResponse: { received: true, started: false } };
		}
		return { workflowData: [[{ json: event as IDataObject }]] };
	}
}
