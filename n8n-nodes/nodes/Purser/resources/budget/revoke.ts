import type { OperationExecute } from '../../shared/operation';
import { purserApiRequest } from '../../shared/transport';
import { sessionIdOf } from './terms';

/** POST /api/v1/payment-sessions/{id}/revoke: end a waiting request or an open budget at once (409 once closed or rejected). */
export const revoke: OperationExecute = async function (itemIndex) {
	const sessionId = sessionIdOf.call(this, itemIndex);
	const { body } = await purserApiRequest.call(this, {
		api: 'owner',
		method: 'POST',
		path: `/payment-sessions/${encodeURIComponent(sessionId)}/revoke`,
		timeoutMs: 30_000,
		itemIndex,
	});
	return body;
};
