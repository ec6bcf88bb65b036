// Idempotency keys for the dashboard's money-moving dialogs (Top Up, Fund Agent).
// The server moves money at most once per key, and runs a request again when its earlier run
// failed (a failure stores nothing); the same key with a different body is refused (409).
// So the dialog keeps one key for as long as it keeps asking for the same thing:
// - a retry of the same request (after a lost response, a timeout, a double click) reuses it,
//   and whatever the server already did is answered, not done again;
// - a changed request (another amount, currency or agent) gets a new key;
// - a success retires the key: the next request is a new one, even if it looks the same;
// - a fresh opening of the dialog starts over with a new key (`reset`).

export interface IdempotencyKeys {
  /** The key to send with `request`. */
  keyFor: (request: Readonly<Record<string, string | number>>) => string;
  /** The request succeeded: the next one gets a new key. */
  succeeded: () => void;
  /** Forget the pending request (the dialog was opened anew). */
  reset: () => void;
}

export function createIdempotencyKeys(newKey: () => string = randomKey): IdempotencyKeys {
  let pending: { request: string; key: string } | null = null;
  return {
    keyFor: (request) => {
      const fingerprint = canonical(request);
      if (pending?.request !== fingerprint) pending = { request: fingerprint, key: newKey() };
      return pending.key;
    },
    succeeded: () => {
      pending = null;
    },
    reset: () => {
      pending = null;
    },
  };
}

/** Field order must not matter: { amount, currency } and { currency, amount } are one request. */
function canonical(request: Readonly<Record<string, string | number>>): string {
  return JSON.stringify(Object.keys(request).sort().map((field) => [field, request[field]]));
}

/**
 * A random UUID (version 4). crypto.randomUUID exists only on https pages and localhost;
 * getRandomValues works on any page, so a dashboard served over plain http on a LAN address
 * still gets keys.
 */
export function randomKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
