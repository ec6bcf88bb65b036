/**
 * Idempotency keys for the operations that move money. Purser answers a repeated key with the
 * first payment instead of paying again, so the key must stay the same when n8n runs the same
 * step again (Retry On Fail re-runs the node within its run) and differ for every other
 * payment: another item, another run of the node in a loop, another execution, workflow or
 * n8n instance.
 */
import { createHash } from 'node:crypto';
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

export interface IdempotencyScope {
	instanceId: string;
	workflowId: string;
	executionId: string;
	nodeName: string;
	runIndex: number;
	itemIndex: number;
}

/** Purser's rule for keys: 1 to 255 printable ASCII characters. */
const VALID_KEY = /^[\x21-\x7e]{1,255}$/;

/** A stable key for one item of one run of one node in one execution, hashed to a fixed length. */
export function deriveIdempotencyKey(scope: IdempotencyScope): string {
	const material = JSON.stringify([
		scope.instanceId,
		scope.workflowId,
		scope.executionId,
		scope.nodeName,
		scope.runIndex,
		scope.itemIndex,
	]);
	return `n8n-${createHash('sha256').update(material).digest('hex')}`;
}

/** The key a money-moving operation sends: the one the user set, or one derived from the execution. */
export function idempotencyKeyFor(this: IExecuteFunctions, itemIndex: number, given: string): string {
	const explicit = given.trim();
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
		// Without an execution id every run would share one key and replay the first payment.
		throw new NodeOperationError(
			this.getNode(),
			'This execution has no id to derive an idempotency key from; set Idempotency Key under Options',
			{ itemIndex },
		);
	}
	return deriveIdempotencyKey({
		instanceId: this.getInstanceId(),
		workflowId: String(this.getWorkflow().id ?? ''),
		executionId,
		nodeName: this.getNode().name,
		runIndex: this.getWorkflowDataProxy(itemIndex).$thisRunIndex,
		itemIndex,
	});
}
