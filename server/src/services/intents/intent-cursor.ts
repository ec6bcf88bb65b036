/**
 * The keyset cursor of intent lists: the position (createdAt, id) of a page's last intent, as
 * base64url text. Lists order by (created_at desc, id desc), so the next page is the rows
 * strictly below that pair, read straight from the (owner_id[, status], created_at desc,
 * id desc) indexes however deep the page: no OFFSET, and no page shifts when new intents arrive.
 */
import { AppError, INTENT_CURSOR_MESSAGE } from '@purser/core';
import { isUuid } from '../agents/owned-agent';

export interface IntentPosition {
  createdAt: Date;
  id: string;
}

const SEPARATOR = '|';
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function encodeIntentCursor(position: IntentPosition): string {
  return Buffer.from(`${position.createdAt.toISOString()}${SEPARATOR}${position.id}`, 'utf8').toString('base64url');
}

/**
 * The position a cursor names; VALIDATION_FAILED (with `message`) for anything this module did
 * not write. Other lists ordered by (created_at desc, id desc) page with the same cursor.
 */
export function decodeIntentCursor(cursor: string, message = INTENT_CURSOR_MESSAGE): IntentPosition {
  const invalid = () => new AppError('VALIDATION_FAILED', message);
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalid();
  const [instant = '', id = '', ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split(SEPARATOR);
  if (rest.length > 0 || !ISO_INSTANT.test(instant) || !isUuid(id)) throw invalid();
  const createdAt = new Date(instant);
  // Round-trips exactly, so impossible dates (2026-02-31) are refused rather than rolled over.
  if (Number.isNaN(createdAt.getTime()) || createdAt.toISOString() !== instant) throw invalid();
  return { createdAt, id: id.toLowerCase() };
}
