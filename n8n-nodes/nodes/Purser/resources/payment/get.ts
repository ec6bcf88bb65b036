import type { INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import type { OperationExecute } from '../../shared/operation';
import { withStatusMessage } from '../../shared/paymentStatus';
import { purserApiRequest } from '../../shared/transport';

const showOnlyForGet = { resource: ['payment'], operation: ['get'] };

export const getDescription: INodeProperties[] = [
	{
		displayName: 'Look Up By',
		name: 'lookUpBy',
		type: 'options',
		options: [
			{
				name: 'Intent ID',
				value: 'intentId',
				description: 'The intent_id that Payment → Create or Paid Request → Fetch answered',
			},
			{
				name: 'Idempotency Key',
				value: 'idempotencyKey',
				description: 'The idempotency_key that Payment → Create answered, or the key you set',
			},
		],
		default: 'intentId',
		displayOptions: { show: showOnlyForGet },
	},
	{
		displayName: 'Intent ID',
		name: 'intentId',
		type: 'string',
		default: '',
		required: true,
		placeholder: '={{ $json.intent_id }}',
		description: 'The payment’s intent ID',
		displayOptions: { show: { ...showOnlyForGet, lookUpBy: ['intentId'] } },
	},
	{
		displayName: 'Idempotency Key',
		name: 'idempotencyKey',
		type: 'string',
		default: '',
		required: true,
		placeholder: '={{ $json.idempotency_key }}',
		description: 'The idempotency key the payment was made with',
		displayOptions: { show: { ...showOnlyForGet, lookUpBy: ['idempotencyKey'] } },
	},
];

/**
 * Where one of the agent's payments stands, by intent ID (GET /payment/{intent_id}) or by
 * idempotency key (GET /payment?idempotency_key=…). It only reads: nothing is paid, and a
 * refused or rejected payment is an answer (its status and failure), not an error.
 */
export const get: OperationExecute = async function (itemIndex) {
	const by = this.getNodeParameter('lookUpBy', itemIndex) as 'intentId' | 'idempotencyKey';
	const value = String(this.getNodeParameter(by, itemIndex) ?? '').trim();
	if (!value) {
		const field = by === 'intentId' ? 'Intent ID' : 'Idempotency Key';
		throw new NodeOperationError(this.getNode(), `${field} is empty`, { itemIndex });
	}
	const { body } = await purserApiRequest.call(this, {
		method: 'GET',
		...(by === 'intentId'
			? { path: `/payment/${encodeURIComponent(value)}` }
			: { path: '/payment', query: { idempotency_key: value } }),
		timeoutMs: 30_000,
		itemIndex,
	});
	return withStatusMessage(body);
};
