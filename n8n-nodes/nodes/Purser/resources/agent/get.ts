import type { INodeProperties } from 'n8n-workflow';
import type { OperationExecute } from '../../shared/operation';
import { purserApiRequest } from '../../shared/transport';

export const getDescription: INodeProperties[] = [];

/** GET /info: the agent's DID, credential, addresses, spending rules and what is left of them. */
export const get: OperationExecute = async function (itemIndex) {
	const { body } = await purserApiRequest.call(this, {
		method: 'GET',
		path: '/info',
		timeoutMs: 30_000,
		itemIndex,
	});
	return body;
};
