import type { IDataObject, INodeProperties } from 'n8n-workflow';
import type { OperationExecute } from '../../shared/operation';
import { purserApiRequest } from '../../shared/transport';

/** Purser answers the latest 50 transactions, newest first. */
const MAX_TRANSACTIONS = 50;

export const getAllDescription: INodeProperties[] = [
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_TRANSACTIONS },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { resource: ['transaction'], operation: ['getAll'] } },
	},
];

/** GET /transactions: one output item per transaction, newest first. */
export const getAll: OperationExecute = async function (itemIndex) {
	const limit = this.getNodeParameter('limit', itemIndex, MAX_TRANSACTIONS) as number;
	const { body } = await purserApiRequest.call(this, {
		method: 'GET',
		path: '/transactions',
		timeoutMs: 30_000,
		itemIndex,
	});
	const transactions = Array.isArray(body.transactions) ? (body.transactions as IDataObject[]) : [];
	return transactions.slice(0, limit);
};
