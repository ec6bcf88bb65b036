/**
 * JSON with object keys sorted at every level, so equal values always serialize to the same
 * bytes (request hashes for idempotency, audit-event hashes). Bigints become decimal strings;
 * properties holding undefined are left out; values JSON cannot carry are refused.
 */
export function canonicalJson(value: unknown): string {
  if (typeof value === 'bigint') return JSON.stringify(value.toString());
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record)
      .filter((key) => record[key] !== undefined)
      .sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(',')}}`;
  }
  const encoded = JSON.stringify(value);
  if (encoded === undefined) throw new TypeError(`canonical JSON cannot hold ${typeof value}`);
  return encoded;
}
