import type { INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import type { OperationExecute } from '../../shared/operation';
import { purserApiRequest } from '../../shared/transport';

const showOnlyForDecisions = { resource: ['payment'], operation: ['approve', 'reject'] };

export const decideDescription: INodeProperties[] = [
	{
		displayName: 'Intent ID',
		name: 'intentId',
		type: 'string',
		default: '',
		required: true,
		placeholder: '2f0c4a4e-8f0e-4f7b-9a51-0c6c1b7e9d3a',
		description:
			'The intent ID of the payment that waits for approval, as Get Many Pending, Payment → Create or a Purser Trigger event give it',
		displayOptions: { show: showOnlyForDecisions },
	},
	{
		displayName: 'Reason',
		name: 'reason',
		type: 'string',
		default: '',
		description: 'Why, up to 500 characters; recorded with the decision and shown to the agent on a rejection',
		displayOptions: { show: showOnlyForDecisions },
	},
];

/** POST /api/v1/intents/{id}/approve or /reject: the owner's decision on a payment that waits for it. */
function decide(decision: 'approve' | 'reject'): OperationExecute {
	return async function (itemIndex) {
		const intentId = String(this.getNodeParameter('intentId', itemIndex) ?? '').trim();
		if (!intentId) throw new NodeOperationError(this.getNode(), 'Intent ID is empty', { itemIndex });
		const reason = String(this.getNodeParameter('reason', itemIndex, '') ?? '').trim();
		const { body } = await purserApiRequest.call(this, {
			api: 'owner',
			method: 'POST',
			path: `/intents/${encodeURIComponent(intentId)}/${decision}`,
			body: reason ? { reason } : {},
			timeoutMs: 30_000,
			itemIndex,
		});
		return body;
	};
}

export const approve = decide('approve');
export const reject = decide('reject');
