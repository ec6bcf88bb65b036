/**
 * Where a payment stands, in the node's words: every status Purser reports (core's
 * INTENT_STATUSES; a unit test keeps the lists equal and the docs page's status table equal to
 * these texts), whether it is final, and what it means for the person reading the output. The
 * node puts this text into the `message` of the payments it outputs instead of the agent API's
 * own, which names endpoints and headers. Also the wait of Paid Request → Fetch's Wait Until
 * Final, which reads the payment the way Payment → Get does until it is final.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { sleepWithAbort } from 'n8n-workflow';
import { purserApiRequest } from './transport';

export interface PaymentStatusText {
	/** Nothing changes after a final status. */
	final: boolean;
	/** What it means and what to do next, naming the node's operations and fields. */
	message: string;
}

export const PAYMENT_STATUSES: Record<string, PaymentStatusText> = {
	created: {
		final: false,
		message: 'Purser has the payment and is checking it against the agent’s spending rules and the owner’s policies. Nothing has moved yet.',
	},
	pending_approval: {
		final: false,
		message:
			'The payment waits for the owner to approve or reject it. Nothing has moved yet. Payment → Get shows where it stands; running this node again with the same idempotency key answers this payment and never pays twice.',
	},
	approved: {
		final: false,
		message: 'The payment passed the checks, or the owner approved it, and Purser is setting the money aside. Nothing has moved yet.',
	},
	processing: {
		final: false,
		message:
			'The money is held and on its way; for a Paid Request, the seller has been paid on chain and Purser is recording the payment. Not final yet: Payment → Get shows where it stands.',
	},
	settled: { final: true, message: 'Final: the money moved.' },
	rejected: { final: true, message: 'Final: the owner rejected the payment. Nothing moved.' },
	blocked: { final: true, message: 'Final: a spending rule or policy refused the payment. Nothing moved.' },
	failed: {
		final: true,
		message: 'Final: the payment did not go through (failure_code and failure_message say why). The money held for it went back to the agent.',
	},
	expired: { final: true, message: 'Final: nobody approved the payment in time. Nothing moved.' },
	cancelled: { final: true, message: 'Final: the owner cancelled the payment before it moved. Nothing moved.' },
};

export function isFinalStatus(status: unknown): boolean {
	return typeof status === 'string' && PAYMENT_STATUSES[status]?.final === true;
}

/**
 * A payment as the node outputs it: Purser's answer with `message` in the node's words. A
 * status this version of the node does not know keeps Purser's message.
 */
export function withStatusMessage(payment: IDataObject): IDataObject {
	const known = typeof payment.status === 'string' ? PAYMENT_STATUSES[payment.status] : undefined;
	return known ? { ...payment, message: known.message } : payment;
}

/** Wait Until Final's bounds: how long it may wait by default and at most, in seconds. */
export const DEFAULT_WAIT_SECONDS = 60;
export const MAX_WAIT_SECONDS = 300;
/** The pauses between two reads, growing to the last and staying there. */
const PAUSES_MS = [500, 1000, 2000, 3000, 5000];

/**
 * Reads the payment (GET /payment/{intent_id}, as Payment → Get) until its status is final or
 * `waitSeconds` have passed, and answers the last status read. A payment that waits for the
 * owner is not waited for: that is a person's decision, which the docs' approval loop waits for.
 * Cancelling the execution ends the wait.
 */
export async function waitForFinalStatus(
	this: IExecuteFunctions,
	intentId: string,
	options: { status: string; waitSeconds: number; itemIndex: number },
): Promise<string> {
	const deadline = Date.now() + options.waitSeconds * 1000;
	let status = options.status;
	for (let read = 0; !isFinalStatus(status) && status !== 'pending_approval'; read++) {
		const pause = PAUSES_MS[Math.min(read, PAUSES_MS.length - 1)]!;
		const left = deadline - Date.now();
		if (left <= 0) break;
		await sleepWithAbort(Math.min(pause, left), this.getExecutionCancelSignal());
		const { body } = await purserApiRequest.call(this, {
			method: 'GET',
			path: `/payment/${encodeURIComponent(intentId)}`,
			timeoutMs: 30_000,
			itemIndex: options.itemIndex,
		});
		if (typeof body.status === 'string') status = body.status;
	}
	return status;
}
