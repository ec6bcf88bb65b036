import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { agentIdOf } from '../../shared/agentId';
import type { OperationExecute } from '../../shared/operation';
import { purserApiRequest } from '../../shared/transport';
import { withBudgetMessage } from './terms';

/** The statuses a budget has (core's PAYMENT_SESSION_STATUSES; a unit test keeps them equal). */
export const BUDGET_STATUSES = [
	{ name: 'Closed', value: 'closed', description: 'Spent, expired or revoked' },
	{ name: 'Open', value: 'open', description: 'Granted or opened: payments may name it' },
	{ name: 'Rejected', value: 'rejected', description: 'The owner rejected the request' },
	{ name: 'Requested', value: 'requested', description: 'An agent’s request waiting for the owner' },
];

export const getAllDescription: INodeProperties[] = [
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: { show: { resource: ['budget'], operation: ['getAllAsOwner'] } },
		options: [
			{
				displayName: 'Agent',
				name: 'agent',
				type: 'string',
				default: '',
				placeholder: 'did:agnic:0423e163-2809-4879-a27c-66df3ed4aa66',
				description: 'Only this agent’s budgets: its DID or agent ID',
			},
			{
				displayName: 'Status',
				name: 'status',
				type: 'options',
				options: BUDGET_STATUSES,
				default: 'requested',
				description: 'Only budgets in this status; Requested lists what waits for a decision',
			},
		],
	},
];

/** GET /budgets: the agent's latest 50 budgets, newest first, one item each. */
export const getAll: OperationExecute = async function (itemIndex) {
	const { body } = await purserApiRequest.call(this, { method: 'GET', path: '/budgets', timeoutMs: 30_000, itemIndex });
	return Array.isArray(body.budgets) ? (body.budgets as IDataObject[]).map(withBudgetMessage) : [];
};

/** GET /api/v1/payment-sessions: the owner's latest 200 budgets, newest first, by agent and status, one item each. */
export const getAllAsOwner: OperationExecute = async function (itemIndex) {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as { agent?: string; status?: string };
	const query: IDataObject = {};
	if (filters.agent?.trim()) query.agentId = agentIdOf.call(this, filters.agent, itemIndex);
	if (filters.status) query.status = filters.status;
	const { body } = await purserApiRequest.call(this, { api: 'owner', method: 'GET', path: '/payment-sessions', query, timeoutMs: 30_000, itemIndex });
	return Array.isArray(body.sessions) ? (body.sessions as IDataObject[]) : [];
};
