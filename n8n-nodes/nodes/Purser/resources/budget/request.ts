import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import type { OperationExecute } from '../../shared/operation';
import { purserApiRequest } from '../../shared/transport';
import { expiryOf, scopeOf, scopeOptions, termsFields, withBudgetMessage, type ScopeOptions } from './terms';

const show = { resource: ['budget'], operation: ['request'] };

export const requestDescription: INodeProperties[] = [
	...termsFields(show, 'agent'),
	{
		displayName: 'Reason',
		name: 'reason',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'Buy market data for the weekly report',
		description: 'What the budget is for, up to 500 characters; the owner reads it before deciding',
		displayOptions: { show },
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show },
		options: scopeOptions,
	},
];

/** The body of POST /budget/request; options left empty are left out, so the budget is not narrowed. */
export function budgetRequestBody(fields: { total: number; expiresAt: string; reason: string; options: ScopeOptions }): IDataObject {
	const body: IDataObject = { total: fields.total, expires_at: fields.expiresAt, reason: fields.reason.trim() };
	if (fields.options.perPaymentMax !== undefined) body.per_payment_max = fields.options.perPaymentMax;
	const scope = scopeOf(fields.options);
	if (scope) body.scope = scope;
	return body;
}

/**
 * POST /budget/request: the agent asks its owner for a budget for one task. It answers the
 * budget with status `requested` and `approval_url`, the owner's one-time link to decide it;
 * nothing may be paid against it until the owner grants it.
 */
export const request: OperationExecute = async function (itemIndex) {
	const reason = String(this.getNodeParameter('reason', itemIndex) ?? '');
	if (!reason.trim()) throw new NodeOperationError(this.getNode(), 'Reason is empty: say what the budget is for', { itemIndex });
	const body = budgetRequestBody({
		total: this.getNodeParameter('total', itemIndex) as number,
		expiresAt: expiryOf.call(this, this.getNodeParameter('expiresAt', itemIndex), 'Expires At', itemIndex),
		reason,
		options: this.getNodeParameter('options', itemIndex, {}) as ScopeOptions,
	});
	const { body: budget } = await purserApiRequest.call(this, { method: 'POST', path: '/budget/request', body, timeoutMs: 30_000, itemIndex });
	return withBudgetMessage(budget);
};
