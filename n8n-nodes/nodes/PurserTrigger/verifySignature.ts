/**
 * Checks a delivery from Purser per Standard Webhooks (https://www.standardwebhooks.com), the
 * scheme Purser signs with: `webhook-signature` holds space-separated `v1,<base64>` entries, each
 * the HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>` under the endpoint's secret
 * (`whsec_` + the base64 of the key's bytes). HMAC and the constant-time comparison are
 * node:crypto's; the `standardwebhooks` package cannot ship here (n8n community nodes have no
 * runtime dependencies, and its own HMAC is a JavaScript SHA-256).
 *
 * The raw body must be the bytes as received: JSON parsed and serialised again does not verify.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Standard Webhooks' recommendation: five minutes either way, against replays of old deliveries. */
export const TIMESTAMP_TOLERANCE_SECONDS = 5 * 60;
const SECRET_PREFIX = 'whsec_';

export type DeliveryHeaders = Record<string, string | string[] | undefined>;

export type VerificationResult = { valid: true } | { valid: false; reason: string };

function header(headers: DeliveryHeaders, name: string): string | undefined {
	const value = headers[name];
	return Array.isArray(value) ? value[0] : value;
}

/** The HMAC key of a `whsec_…` secret: the bytes its base64 encodes. */
function secretKey(secret: string): Buffer {
	return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}

/** What Purser would put after `v1,` for this delivery under this secret. */
export function signDelivery(secret: string, id: string, timestamp: string, rawBody: Buffer): string {
	return createHmac('sha256', secretKey(secret))
		.update(`${id}.${timestamp}.`)
		.update(rawBody)
		.digest('base64');
}

export function verifyDelivery(options: {
	secret: string;
	headers: DeliveryHeaders;
	rawBody: Buffer;
	nowSeconds: number;
}): VerificationResult {
	const id = header(options.headers, 'webhook-id');
	const timestamp = header(options.headers, 'webhook-timestamp');
	const signatures = header(options.headers, 'webhook-signature');
	if (!id || !timestamp || !signatures) {
		return { valid: false, reason: 'The webhook-id, webhook-timestamp and webhook-signature headers are required' };
	}
	if (!/^\d{1,15}$/.test(timestamp)) return { valid: false, reason: 'webhook-timestamp is not whole seconds' };
	if (Math.abs(options.nowSeconds - Number(timestamp)) > TIMESTAMP_TOLERANCE_SECONDS) {
		return { valid: false, reason: 'webhook-timestamp is more than five minutes away from now' };
	}
	const expected = Buffer.from(signDelivery(options.secret, id, timestamp, options.rawBody), 'base64');
	const matches = signatures
		.split(' ')
		.map((entry) => entry.split(','))
		// Other schemes (v1a, asymmetric) are not what Purser sends: skipped, not trusted.
		.filter((parts) => parts.length === 2 && parts[0] === 'v1')
		.map(([, value]) => Buffer.from(value ?? '', 'base64'))
		.some((offered) => offered.length === expected.length && timingSafeEqual(offered, expected));
	return matches ? { valid: true } : { valid: false, reason: 'No signature matches the endpoint’s secret' };
}
