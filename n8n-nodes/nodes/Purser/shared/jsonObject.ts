import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { jsonParse, NodeOperationError } from 'n8n-workflow';

const NOT_JSON = Symbol('not JSON');

/**
 * A JSON object parameter, typed by the user as text or produced by an expression as an object.
 * Anything else (an array, a number, broken JSON) stops the item with the parameter's name.
 */
export function jsonObjectParameter(
	this: IExecuteFunctions,
	value: unknown,
	name: string,
	itemIndex: number,
): IDataObject {
	let parsed = value;
	if (typeof value === 'string') {
		parsed = value.trim() === '' ? {} : jsonParse<unknown>(value, { fallbackValue: NOT_JSON });
	}
	if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
		throw new NodeOperationError(this.getNode(), `${name} must be a JSON object`, { itemIndex });
	}
	return parsed as IDataObject;
}
