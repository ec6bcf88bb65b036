import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

/** One page of a list, and the cursor of the next one (null or absent on the last page). */
export interface Page {
	entries: IDataObject[];
	nextCursor: string | null | undefined;
}

/**
 * Reads pages until `limit` entries are in hand or the last page has been read (limit
 * undefined: every page). A cursor that comes back unchanged ends the reading rather than
 * looping forever.
 */
export async function collectPages(
	fetchPage: (cursor: string | undefined, pageSize: number) => Promise<Page>,
	options: { limit: number | undefined; maxPageSize: number },
): Promise<IDataObject[]> {
	const entries: IDataObject[] = [];
	let cursor: string | undefined;
	for (;;) {
		const wanted = options.limit === undefined ? options.maxPageSize : Math.min(options.maxPageSize, options.limit - entries.length);
		const page = await fetchPage(cursor, wanted);
		entries.push(...page.entries);
		if (options.limit !== undefined && entries.length >= options.limit) return entries.slice(0, options.limit);
		if (!page.nextCursor || page.nextCursor === cursor || page.entries.length === 0) return entries;
		cursor = page.nextCursor;
	}
}

/** Return All and Limit (50 unless changed), as n8n's list operations show them. */
export function returnAllAndLimit(show: { resource: string[]; operation: string[] }, maxLimit: number): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
			displayOptions: { show },
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: maxLimit },
			default: 50,
			description: 'Max number of results to return',
			displayOptions: { show: { ...show, returnAll: [false] } },
		},
	];
}

/** The limit the user chose, or undefined for Return All. */
export function chosenLimit(this: IExecuteFunctions, itemIndex: number): number | undefined {
	if (this.getNodeParameter('returnAll', itemIndex, false) as boolean) return undefined;
	return this.getNodeParameter('limit', itemIndex, 50) as number;
}
