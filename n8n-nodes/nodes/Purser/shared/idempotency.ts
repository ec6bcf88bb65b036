/**
 * Idempotency keys for the operations that move money. Purser answers a repeated key with the
 * first payment instead of paying again, so a derived key must stay the same whenever n8n asks
 * for the same payment again, and differ for every other payment.
 *
 * "The same payment" is the same request from the same node in the same execution, not the same
 * run of the node: Retry On Fail runs the node again, and a loop through a Wait node back to
 * it (the way to wait for an owner's approval) runs it again with a higher run index and, once
 * an IF node has let some items go, with the remaining items at other positions. Neither the
 * run index nor the item's position identifies the payment, so the key is derived from what
 * does: the request itself (amount, address, currency, rail, description, category, metadata;
 * for x402 the URL, method, headers, body and price cap). Several identical requests in one
 * run of the node are told apart by their order among themselves, so three equal items pay
 * three times, and their keys come back in the same order when the items come back.
 *
 * The old derivation (one key per run of the node and item) stays available as an option for
 * workflows that mean to pay again on every pass through a loop.
 */
import { createHash } from 'node:crypto';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** How a key is derived when the user did not set one (Options → Derive Key From). */
export const KEY_DERIVATIONS = ['request', 'runAndItem'] as const;
export type KeyDerivation = (typeof KEY_DERIVATIONS)[number];

/** Where a derived key is valid: one node of one execution of one workflow on one n8n. */
export interface KeyScope {
	instanceId: string;
	workflowId: string;
	executionId: string;
	nodeName: string;
}

/** Purser's rule for keys: 1 to 255 printable ASCII characters. */
const VALID_KEY = /^[\x21-\x7e]{1,255}$/;

function sha256(material: unknown): string {
	return createHash('sha256').update(JSON.stringify(material)).digest('hex');
}

/** JSON with object keys sorted at every depth, so equal requests hash alike whatever their key order. */
function canonical(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(canonical);
	if (typeof value === 'object' && value !== null) {
		return Object.fromEntries(
			Object.keys(value)
				.sort()
				.map((key) => [key, canonical((value as IDataObject)[key])]),
		);
	}
	return value;
}

/** The fingerprint of one request to one endpoint. */
export function requestDigest(path: string, body: IDataObject): string {
	return sha256([path, canonical(body)]);
}

/** The key of the `occurrence`-th (from 0) request with this digest in one run of the node. */
export function deriveRequestKey(scope: KeyScope, digest: string, occurrence: number): string {
	return `n8n-${sha256(['request', scope.instanceId, scope.workflowId, scope.executionId, scope.nodeName, digest, occurrence])}`;
}

/** The old derivation: one key per run of the node and position of the item. */
export function deriveRunAndItemKey(scope: KeyScope, runIndex: number, itemIndex: number): string {
	return `n8n-${sha256([scope.instanceId, scope.workflowId, scope.executionId, scope.nodeName, runIndex, itemIndex])}`;
}

/**
 * Counts the requests of one run of the node (one call of execute()), so equal requests get
 * their order among themselves. n8n runs execute() again, from the first item, on Retry On
 * Fail and on every pass through a loop, so the count starts over with the items.
 */
export class RequestOccurrences {
	private readonly seen = new Map<string, number>();

	next(digest: string): number {
		const occurrence = this.seen.get(digest) ?? 0;
		this.seen.set(digest, occurrence + 1);
		return occurrence;
	}
}

export interface KeyRequest {
	itemIndex: number;
	/** The key the user set under Options; empty to derive one. */
	given: string;
	derivation: KeyDerivation;
	/** The endpoint and the body sent to it, which identify the payment. */
	path: string;
	body: IDataObject;
	occurrences: RequestOccurrences;
}

/** The key a money-moving operation sends: the one the user set, or one derived as chosen. */
export function idempotencyKeyFor(this: IExecuteFunctions, request: KeyRequest): string {
	const { itemIndex } = request;
	const explicit = request.given.trim();
	if (explicit) {
		if (!VALID_KEY.test(explicit)) {
			throw new NodeOperationError(
				this.getNode(),
				'The idempotency key must be 1 to 255 printable ASCII characters without spaces',
				{ itemIndex },
			);
		}
		return explicit;
	}
	const executionId = this.getExecutionId();
	if (!executionId) {
		// Without an execution id every execution would share one key and replay the first payment.
		throw new NodeOperationError(
			this.getNode(),
			'This execution has no ID to derive an idempotency key from; set Idempotency Key under Options',
			{ itemIndex },
		);
	}
	const scope: KeyScope = {
		instanceId: this.getInstanceId(),
		workflowId: String(this.getWorkflow().id ?? ''),
		executionId,
		nodeName: this.getNode().name,
	};
	if (request.derivation === 'runAndItem') {
		return deriveRunAndItemKey(scope, this.getWorkflowDataProxy(itemIndex).$thisRunIndex, itemIndex);
	}
	const digest = requestDigest(request.path, request.body);
	return deriveRequestKey(scope, digest, request.occurrences.next(digest));
}
