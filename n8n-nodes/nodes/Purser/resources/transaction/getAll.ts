import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import type { OperationExecute } from '../../shared/operation';
import { chosenLimit, collectPages, returnAllAndLimit } from '../../shared/paging';
import { purserApiRequest } from '../../shared/transport';

/** The most transactions one page of GET /transactions holds (and all that an agent API without paging answers). */
export const TRANSACTIONS_PAGE_SIZE = 50;

export const getAllDescription: INodeProperties[] = returnAllAndLimit({ resource: ['transaction'], operation: ['getAll'] }, 10_000);

/**
 * GET /transactions, a page at a time (`limit`, `cursor`, `next_cursor`): one output item per
 * transaction, newest first. A Purser whose agent API does not page yet answers its latest 50
 * and no `next_cursor`; asking such a Purser for more than it can give is an error rather than
 * a list that silently stops at 50.
 */
export const getAll: OperationExecute = async function (itemIndex) {
	const limit = chosenLimit.call(this, itemIndex);
	let paging = true;
	const transactions = await collectPages(
		async (cursor, pageSize) => {
			const query: IDataObject = { limit: pageSize };
			if (cursor) query.cursor = cursor;
			const { body } = await purserApiRequest.call(this, { method: 'GET', path: '/transactions', query, timeoutMs: 30_000, itemIndex });
			paging = 'next_cursor' in body;
			return {
				entries: Array.isArray(body.transactions) ? (body.transactions as IDataObject[]) : [],
				nextCursor: typeof body.next_cursor === 'string' ? body.next_cursor : null,
			};
		},
		{ limit, maxPageSize: TRANSACTIONS_PAGE_SIZE },
	);
	const wantedMore = limit === undefined || limit > transactions.length;
	if (!paging && wantedMore && transactions.length >= TRANSACTIONS_PAGE_SIZE) {
		throw new NodeOperationError(
			this.getNode(),
			`This Purser answers only the latest ${TRANSACTIONS_PAGE_SIZE} transactions and no cursor to read on`,
			{ itemIndex, description: `Turn off Return All and set Limit to ${TRANSACTIONS_PAGE_SIZE} or less, or update Purser.` },
		);
	}
	return transactions;
};
