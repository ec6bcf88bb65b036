// Reading the owner's API keys for the page: active ones first (newest first), then revoked
// ones (most recently revoked first), how many more may be created, and how dates read.
import { MAX_ACTIVE_OWNER_API_KEYS } from '@purser/core';
import type { OwnerApiKey } from '../api/api-key-types';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number) => String(n).padStart(2, '0');

export function sortApiKeys(keys: readonly OwnerApiKey[]): OwnerApiKey[] {
  const time = (value: string | null) => (value ? new Date(value).getTime() : 0);
  return [...keys].sort((a, b) => {
    if ((a.revoked_at === null) !== (b.revoked_at === null)) return a.revoked_at === null ? -1 : 1;
    if (a.revoked_at && b.revoked_at) return time(b.revoked_at) - time(a.revoked_at);
    return time(b.created_at) - time(a.created_at);
  });
}

export interface KeyAllowance {
  active: number;
  max: number;
  /** False at the limit: the server refuses another key until one is revoked. */
  canCreate: boolean;
}

export function keyAllowance(keys: readonly OwnerApiKey[], max = MAX_ACTIVE_OWNER_API_KEYS): KeyAllowance {
  const active = keys.filter((key) => key.revoked_at === null).length;
  return { active, max, canCreate: active < max };
}

/** '2025-10-18T09:05:00Z' -> 'Oct 18, 2025 at 09:05' (local time); null -> the fallback. */
export function formatKeyDate(value: string | null, fallback = '—'): string {
  if (!value) return fallback;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return fallback;
  return `${MONTHS[date.getMonth()]} ${date.getDate()}, ${date.getFullYear()} at ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A key without a name is called by its prefix. */
export function keyLabel(key: Pick<OwnerApiKey, 'name' | 'prefix'>): string {
  return key.name.trim() || key.prefix;
}
