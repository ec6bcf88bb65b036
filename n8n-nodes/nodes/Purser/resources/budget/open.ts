import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { agentIdOf } from '../../shared/agentId';
import type { OperationExecute } from '../../shared/operation';
import { purserApiRequest } from '../../shared/transport';
import { expiryOf, scopeOf, scopeOptions, termsFields, type ScopeOptions } from './terms';

const show = { resource: ['budget'], operation: ['open'] };

export const openDescription: INodeProperties[] = [
	{
		displayName: 'Agent',
		name: 'agent',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'did:agnic:0423e163-2809-4879-a27c-66df3ed4aa66',
		description: 'The agent the budget is for: its DID or agent ID',
		displayOptions: { show },
	},
	...termsFields(show, 'owner'),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show },
		options: [
			...scopeOptions.filter((option) => option.name < 'reason'),
			{
				displayName: 'Reason',
				name: 'reason',
				type: 'string',
				default: '',
				description: 'What the budget is for, up to 500 characters; the agent sees it',
			},
			...scopeOptions.filter((option) => option.name > 'reason'),
		],
	},
];

export interface OpenOptions extends ScopeOptions {
	reason?: string;
}

/** The body of POST /api/v1/payment-sessions; options left empty are left out. */
export function openBudgetBody(fields: { agentId: string; total: number; expiresAt: string; options: OpenOptions }): IDataObject {
	const body: IDataObject = { agentId: fields.agentId, totalUsd: fields.total, expiresAt: fields.expiresAt };
	if (fields.options.perPaymentMax !== undefined) body.perPaymentMaxUsd = fields.options.perPaymentMax;
	const scope = scopeOf(fields.options);
	if (scope) body.scope = scope;
	if (fields.options.reason?.trim()) body.reason = fields.options.reason.trim();
	return body;
}

/** POST /api/v1/payment-sessions: the owner opens a budget for one of their agents, open at once. */
export const open: OperationExecute = async function (itemIndex) {
	const body = openBudgetBody({
		agentId: agentIdOf.call(this, String(this.getNodeParameter('agent', itemIndex) ?? ''), itemIndex),
		total: this.getNodeParameter('total', itemIndex) as number,
		expiresAt: expiryOf.call(this, this.getNodeParameter('expiresAt', itemIndex), 'Expires At', itemIndex),
		options: this.getNodeParameter('options', itemIndex, {}) as OpenOptions,
	});
	const { body: budget } = await purserApiRequest.call(this, { api: 'owner', method: 'POST', path: '/payment-sessions', body, timeoutMs: 30_000, itemIndex });
	return budget;
};
