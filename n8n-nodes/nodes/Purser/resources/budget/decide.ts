import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import type { OperationExecute } from '../../shared/operation';
import { purserApiRequest } from '../../shared/transport';
import { expiryOf, sessionIdOf } from './terms';

const noteDescription = 'Why, up to 500 characters; the agent reads it as decision_note';

export const decideDescription: INodeProperties[] = [
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show: { resource: ['budget'], operation: ['grant'] } },
		options: [
			{
				displayName: 'Expires At',
				name: 'expiresAt',
				type: 'dateTime',
				default: '',
				description: 'End the budget sooner than the agent asked (never later). A date without a time zone is in the workflow’s time zone.',
			},
			{
				displayName: 'Note',
				name: 'note',
				type: 'string',
				default: '',
				description: noteDescription,
			},
			{
				displayName: 'Total (USD)',
				name: 'total',
				type: 'number',
				typeOptions: { minValue: 0.000001, numberPrecision: 6 },
				default: 1,
				description: 'Grant less than the agent asked for (never more), in dollars',
			},
		],
	},
	{
		displayName: 'Note',
		name: 'note',
		type: 'string',
		default: '',
		description: noteDescription,
		displayOptions: { show: { resource: ['budget'], operation: ['rejectRequest'] } },
	},
];

interface GrantOptions {
	expiresAt?: unknown;
	note?: string;
	total?: number;
}

/** POST /api/v1/payment-sessions/{id}/decide: the owner's answer to a request that waits (409 once decided). */
async function decide(this: IExecuteFunctions, itemIndex: number, decision: IDataObject): Promise<IDataObject> {
	const sessionId = sessionIdOf.call(this, itemIndex);
	const { body } = await purserApiRequest.call(this, {
		api: 'owner',
		method: 'POST',
		path: `/payment-sessions/${encodeURIComponent(sessionId)}/decide`,
		body: decision,
		timeoutMs: 30_000,
		itemIndex,
	});
	return body;
}

/** Grant a request: open at once, as asked or for less, or until sooner. */
export const grant: OperationExecute = async function (itemIndex) {
	const options = this.getNodeParameter('options', itemIndex, {}) as GrantOptions;
	const decision: IDataObject = { approve: true };
	if (options.total !== undefined) decision.totalUsd = options.total;
	if (options.expiresAt !== undefined && String(options.expiresAt).trim() !== '') {
		decision.expiresAt = expiryOf.call(this, options.expiresAt, 'Expires At', itemIndex);
	}
	if (options.note?.trim()) decision.note = options.note.trim();
	return await decide.call(this, itemIndex, decision);
};

/** Reject a request: nothing may be paid against it. */
export const rejectRequest: OperationExecute = async function (itemIndex) {
	const note = String(this.getNodeParameter('note', itemIndex, '') ?? '').trim();
	return await decide.call(this, itemIndex, note ? { approve: false, note } : { approve: false });
};
