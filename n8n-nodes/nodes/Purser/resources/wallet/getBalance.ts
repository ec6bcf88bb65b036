import type { INodeProperties } from 'n8n-workflow';
import type { OperationExecute } from '../../shared/operation';
import { purserApiRequest } from '../../shared/transport';

export const getBalanceDescription: INodeProperties[] = [];

/** GET /balance: what the agent may spend (ledger) and what its address holds on chain. */
export const getBalance: OperationExecute = async function (itemIndex) {
	const { body } = await purserApiRequest.call(this, {
		method: 'GET',
		path: '/balance',
		timeoutMs: 30_000,
		itemIndex,
	});
	return body;
};
