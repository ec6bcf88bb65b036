// How the approval page writes money, times and a scope.
import type { PaymentSessionScope } from '@purser/core';

const USD = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 6 });

/** `$5.00`, `$2.125`: at least cents, every decimal the amount has. */
export function formatUsd(exact: string): string {
  return USD.format(Number(exact));
}

/** A date and time in the browser's zone, e.g. `Dec 9, 2026, 3:00 PM`. */
export function formatWhen(iso: string): string {
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

/** What a scope allows, one line per list it narrows; none: anything the agent's rules allow. */
export function scopeLines(scope: PaymentSessionScope): string[] {
  const lines: string[] = [];
  if (scope.sellers?.length) lines.push(`Sellers: ${scope.sellers.join(', ')}`);
  if (scope.categories?.length) lines.push(`Categories: ${scope.categories.join(', ')}`);
  if (scope.protocols?.length) lines.push(`Protocols: ${scope.protocols.join(', ')}`);
  if (scope.rails?.length) lines.push(`Rails: ${scope.rails.join(', ')}`);
  return lines;
}
