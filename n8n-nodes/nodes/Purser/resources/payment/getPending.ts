import type { IDataObject, INodeProperties } from 'n8n-workflow';
import type { OperationExecute } from '../../shared/operation';
import { agentIdOf } from '../../shared/agentId';
import { chosenLimit, collectPages, returnAllAndLimit } from '../../shared/paging';
import { purserApiRequest } from '../../shared/transport';

/** The owner API's largest page of intents. */
const PAGE_SIZE = 100;
const show = { resource: ['payment'], operation: ['getPending'] };

export const getPendingDescription: INodeProperties[] = [
	...returnAllAndLimit(show, 1000),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: { show },
		options: [
			{
				displayName: 'Agent',
				name: 'agent',
				type: 'string',
				default: '',
				placeholder: 'did:agnic:0423e163-2809-4879-a27c-66df3ed4aa66',
				description: 'Only this agent’s payments: its DID or agent ID',
			},
		],
	},
];

/** GET /api/v1/intents?status=pending_approval: the payments that wait for the owner, newest first, one item each. */
export const getPending: OperationExecute = async function (itemIndex) {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as { agent?: string };
	const agent = filters.agent?.trim() ? agentIdOf.call(this, filters.agent, itemIndex) : undefined;
	return await collectPages(
		async (cursor, pageSize) => {
			const query: IDataObject = { status: 'pending_approval', limit: pageSize };
			if (agent) query.agentId = agent;
			if (cursor) query.cursor = cursor;
			const { body } = await purserApiRequest.call(this, { api: 'owner', method: 'GET', path: '/intents', query, timeoutMs: 30_000, itemIndex });
			return {
				entries: Array.isArray(body.intents) ? (body.intents as IDataObject[]) : [],
				nextCursor: typeof body.nextCursor === 'string' ? body.nextCursor : null,
			};
		},
		{ limit: chosenLimit.call(this, itemIndex), maxPageSize: PAGE_SIZE },
	);
};
