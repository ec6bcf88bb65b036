import type { INodeProperties } from 'n8n-workflow';
import { agentIdOf } from '../../shared/agentId';
import type { OperationExecute } from '../../shared/operation';
import { purserApiRequest } from '../../shared/transport';

export const suspendDescription: INodeProperties[] = [
	{
		displayName: 'Agent',
		name: 'agent',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'did:agnic:0423e163-2809-4879-a27c-66df3ed4aa66',
		description: 'The agent’s DID or agent ID',
		displayOptions: { show: { resource: ['agent'], operation: ['suspend', 'resume'] } },
	},
];

/** POST /api/v1/agents/{id}/suspend or /reactivate: the owner stops an agent, or lets it act again. */
function setStatus(action: 'suspend' | 'reactivate'): OperationExecute {
	return async function (itemIndex) {
		const agentId = agentIdOf.call(this, String(this.getNodeParameter('agent', itemIndex) ?? ''), itemIndex);
		const { body } = await purserApiRequest.call(this, {
			api: 'owner',
			method: 'POST',
			path: `/agents/${agentId}/${action}`,
			timeoutMs: 30_000,
			itemIndex,
		});
		return body;
	};
}

export const suspend = setStatus('suspend');
export const resume = setStatus('reactivate');
