// Reading the owner's API keys for the page: which are live, expired or revoked, live ones first
// (newest first) then the others (the most recently ended first), how many more may be created,
// and how dates read.
import { MAX_ACTIVE_OWNER_API_KEYS } from '@purser/core';
import type { OwnerApiKey } from '../api/api-key-types';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number) => String(n).padStart(2, '0');
const DAY_MS = 86_400_000;

export type KeyState = 'active' | 'expired' | 'revoked';

/** Revoked wins over expired: revoking is what the owner did. */
export function keyState(key: Pick<OwnerApiKey, 'revoked_at' | 'expires_at'>, now: number = Date.now()): KeyState {
  if (key.revoked_at !== null) return 'revoked';
  return new Date(key.expires_at).getTime() <= now ? 'expired' : 'active';
}

export function sortApiKeys(keys: readonly OwnerApiKey[], now: number = Date.now()): OwnerApiKey[] {
  const time = (value: string | null) => (value ? new Date(value).getTime() : 0);
  const endedAt = (key: OwnerApiKey) => time(key.revoked_at) || time(key.expires_at);
  return [...keys].sort((a, b) => {
    const aActive = keyState(a, now) === 'active';
    if (aActive !== (keyState(b, now) === 'active')) return aActive ? -1 : 1;
    if (!aActive) return endedAt(b) - endedAt(a);
    return time(b.created_at) - time(a.created_at);
  });
}

export interface KeyAllowance {
  active: number;
  max: number;
  /** False at the limit: the server refuses another key until one is revoked or expires. */
  canCreate: boolean;
}

export function keyAllowance(keys: readonly OwnerApiKey[], max = MAX_ACTIVE_OWNER_API_KEYS, now: number = Date.now()): KeyAllowance {
  const active = keys.filter((key) => keyState(key, now) === 'active').length;
  return { active, max, canCreate: active < max };
}

/** '2025-10-18T09:05:00Z' -> 'Oct 18, 2025 at 09:05' (local time); null -> the fallback. */
export function formatKeyDate(value: string | null, fallback = '—'): string {
  if (!value) return fallback;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return fallback;
  return `${MONTHS[date.getMonth()]} ${date.getDate()}, ${date.getFullYear()} at ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** 30 -> '30 days', 365 -> '1 year': the lifetimes the create dialog offers. */
export function lifetimeLabel(days: number): string {
  return days === 365 ? '1 year' : `${days} days`;
}

/** When a key created now with this lifetime expires, as the dialog shows it. */
export function expiryFromNow(days: number, now: number = Date.now()): string {
  return formatKeyDate(new Date(now + days * DAY_MS).toISOString());
}

/** A key without a name is called by its prefix. */
export function keyLabel(key: Pick<OwnerApiKey, 'name' | 'prefix'>): string {
  return key.name.trim() || key.prefix;
}
