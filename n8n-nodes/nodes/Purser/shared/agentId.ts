import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** An agent's DID is `did:agnic:` followed by its agent ID. */
const DID_PREFIX = 'did:agnic:';

/** The agent ID named by an agent ID or an agent DID, as the owner API's paths want it. */
export function agentIdOf(this: IExecuteFunctions, value: string, itemIndex: number): string {
	const trimmed = value.trim();
	const id = trimmed.toLowerCase().startsWith(DID_PREFIX) ? trimmed.slice(DID_PREFIX.length) : trimmed;
	if (!UUID.test(id)) {
		throw new NodeOperationError(this.getNode(), `"${value}" is neither an agent ID nor an agent DID (did:agnic:…)`, { itemIndex });
	}
	return id;
}
