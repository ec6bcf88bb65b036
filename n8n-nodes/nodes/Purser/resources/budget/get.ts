import type { INodeProperties } from 'n8n-workflow';
import type { OperationExecute } from '../../shared/operation';
import { purserApiRequest } from '../../shared/transport';
import { sessionIdField, sessionIdOf, withBudgetMessage } from './terms';

export const getDescription: INodeProperties[] = [
	sessionIdField(
		{ resource: ['budget'], operation: ['get'] },
		'The budget’s session ID, as Budget → Request or Get Many answered it (session_id)',
	),
	sessionIdField(
		{ resource: ['budget'], operation: ['getAsOwner', 'grant', 'rejectRequest', 'revoke'] },
		'The budget’s session ID, as Get Many (Owner), Open or a Purser Trigger budget event give it (id)',
	),
];

/** GET /budget/{session_id}: one of the agent's budgets, what it spent and what remains, and what to do next. */
export const get: OperationExecute = async function (itemIndex) {
	const sessionId = sessionIdOf.call(this, itemIndex);
	const { body } = await purserApiRequest.call(this, { method: 'GET', path: `/budget/${encodeURIComponent(sessionId)}`, timeoutMs: 30_000, itemIndex });
	return withBudgetMessage(body);
};

/** GET /api/v1/payment-sessions/{id}: one of the owner's budgets, of any of their agents. */
export const getAsOwner: OperationExecute = async function (itemIndex) {
	const sessionId = sessionIdOf.call(this, itemIndex);
	const { body } = await purserApiRequest.call(this, {
		api: 'owner',
		method: 'GET',
		path: `/payment-sessions/${encodeURIComponent(sessionId)}`,
		timeoutMs: 30_000,
		itemIndex,
	});
	return body;
};
