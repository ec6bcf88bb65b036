import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';
import { agentDescription } from './resources/agent';
import { get as getAgent } from './resources/agent/get';
import { resume as resumeAgent, suspend as suspendAgent } from './resources/agent/suspend';
import { budgetDescription } from './resources/budget';
import { grant as grantBudget, rejectRequest as rejectBudgetRequest } from './resources/budget/decide';
import { get as getBudget, getAsOwner as getBudgetAsOwner } from './resources/budget/get';
import { getAll as getAllBudgets, getAllAsOwner as getAllBudgetsAsOwner } from './resources/budget/getAll';
import { open as openBudget } from './resources/budget/open';
import { request as requestBudget } from './resources/budget/request';
import { revoke as revokeBudget } from './resources/budget/revoke';
import { paidRequestDescription } from './resources/paidRequest';
import { fetch as fetchPaidRequest } from './resources/paidRequest/fetch';
import { getPrice } from './resources/paidRequest/getPrice';
import { paymentDescription } from './resources/payment';
import { create as createPayment } from './resources/payment/create';
import { approve as approvePayment, reject as rejectPayment } from './resources/payment/decide';
import { get as getPayment } from './resources/payment/get';
import { getPending as getPendingPayments } from './resources/payment/getPending';
import { transactionDescription } from './resources/transaction';
import { getAll as getAllTransactions } from './resources/transaction/getAll';
import { walletDescription } from './resources/wallet';
import { getBalance } from './resources/wallet/getBalance';
import { RequestOccurrences } from './shared/idempotency';
import { ItemWithBinary, type OperationExecute } from './shared/operation';

/** resource -> operation -> implementation; the description below offers exactly these. */
export const OPERATIONS: Record<string, Record<string, OperationExecute>> = {
	agent: { get: getAgent, resume: resumeAgent, suspend: suspendAgent },
	budget: {
		get: getBudget,
		getAll: getAllBudgets,
		getAllAsOwner: getAllBudgetsAsOwner,
		getAsOwner: getBudgetAsOwner,
		grant: grantBudget,
		open: openBudget,
		rejectRequest: rejectBudgetRequest,
		request: requestBudget,
		revoke: revokeBudget,
	},
	paidRequest: { fetch: fetchPaidRequest, getPrice },
	payment: {
		approve: approvePayment,
		create: createPayment,
		get: getPayment,
		getPending: getPendingPayments,
		reject: rejectPayment,
	},
	transaction: { getAll: getAllTransactions },
	wallet: { getBalance },
};

/**
 * The operations only an owner may run: they use the Purser Owner API credential, every other
 * operation the agent's. No other resource has an operation of these values, so the operation
 * alone says which credential a node needs (a unit test keeps it so).
 */
export const OWNER_OPERATIONS = [
	'approve',
	'getAllAsOwner',
	'getAsOwner',
	'getPending',
	'grant',
	'open',
	'reject',
	'rejectRequest',
	'resume',
	'revoke',
	'suspend',
];

export class Purser implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Purser',
		name: 'purser',
		icon: { light: 'file:../../icons/purser.svg', dark: 'file:../../icons/purser.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Pay, check payments, read the balance and transactions, buy paid HTTP resources (x402 and MPP sellers) and ask for budgets as a Purser agent, within its spending rules; approve payments, grant budgets and suspend agents as their owner',
		defaults: { name: 'Purser' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: 'purserApi', required: true, displayOptions: { hide: { operation: OWNER_OPERATIONS } } },
			{ name: 'purserOwnerApi', required: true, displayOptions: { show: { operation: OWNER_OPERATIONS } } },
		],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Agent', value: 'agent' },
					{ name: 'Budget', value: 'budget' },
					{ name: 'Paid Request (X402, MPP)', value: 'paidRequest' },
					{ name: 'Payment', value: 'payment' },
					{ name: 'Transaction', value: 'transaction' },
					{ name: 'Wallet', value: 'wallet' },
				],
				default: 'payment',
			},
			...agentDescription,
			...budgetDescription,
			...paidRequestDescription,
			...paymentDescription,
			...transactionDescription,
			...walletDescription,
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const output: INodeExecutionData[] = [];
		const run = { occurrences: new RequestOccurrences() };
		for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
			try {
				const resource = this.getNodeParameter('resource', itemIndex) as string;
				const operation = this.getNodeParameter('operation', itemIndex) as string;
				const execute = OPERATIONS[resource]?.[operation];
				if (!execute) {
					throw new NodeOperationError(
						this.getNode(),
						`The operation "${operation}" of "${resource}" is not supported`,
						{ itemIndex },
					);
				}
				const result = await execute.call(this, itemIndex, run);
				if (result instanceof ItemWithBinary) {
					output.push({ json: result.json, binary: result.binary, pairedItem: { item: itemIndex } });
					continue;
				}
				for (const json of Array.isArray(result) ? result : [result]) {
					output.push({ json, pairedItem: { item: itemIndex } });
				}
			} catch (error) {
				if (this.continueOnFail()) {
					output.push({ json: failedItem(error), pairedItem: { item: itemIndex } });
					continue;
				}
				// Both constructors hand back an error of their own class unchanged (it already names
				// its item); anything else becomes a NodeOperationError for this item.
				if (error instanceof NodeApiError) {
					throw new NodeApiError(this.getNode(), error as unknown as JsonObject);
				}
				throw new NodeOperationError(this.getNode(), error as Error, { itemIndex });
			}
		}
		return [output];
	}
}

/** With Continue On Fail, the failed item says why, so the next node can route on it. */
function failedItem(error: unknown): IDataObject {
	const failure = error as { message?: string; description?: string | null; httpCode?: string | null };
	const json: IDataObject = { error: failure.message ?? String(error) };
	// Only HTTP statuses: an error without an answer carries a code such as ECONNREFUSED.
	if (failure.httpCode && /^\d{3}$/.test(failure.httpCode)) json.http_status = Number(failure.httpCode);
	if (failure.description) json.hint = failure.description;
	return json;
}
