// The owner console's sections, in the top bar's order, and which one a URL belongs to.

export type ConsoleSection = 'overview' | 'payments' | 'approvals' | 'policies' | 'webhooks' | 'api-keys' | 'audit';

export interface ConsoleNavItem {
  section: ConsoleSection;
  label: string;
  to: string;
}

export const CONSOLE_NAV: readonly ConsoleNavItem[] = [
  { section: 'overview', label: 'Overview', to: '/dashboard' },
  { section: 'payments', label: 'Payments', to: '/dashboard/payments' },
  { section: 'approvals', label: 'Approvals', to: '/dashboard/approvals' },
  { section: 'policies', label: 'Policies', to: '/dashboard/policies' },
  { section: 'webhooks', label: 'Webhooks', to: '/dashboard/webhooks' },
  { section: 'api-keys', label: 'API keys', to: '/dashboard/api-keys' },
  { section: 'audit', label: 'Audit', to: '/dashboard/audit' },
];

/**
 * The section a console URL belongs to: a payment's page is under Payments, an agent's pages
 * under Overview (where the agents are listed); anything else under /dashboard is Overview.
 */
export function consoleSection(pathname: string): ConsoleSection | null {
  const path = pathname.replace(/\/+$/, '');
  if (path !== '/dashboard' && !path.startsWith('/dashboard/')) return null;
  const first = path.split('/')[2];
  const match = CONSOLE_NAV.find((item) => item.section !== 'overview' && item.to === `/dashboard/${first}`);
  return match ? match.section : 'overview';
}

/** The approvals link's accessible name: 'Approvals, 2 waiting'. */
export function approvalsLabel(count: number | undefined): string {
  return count ? `Approvals, ${count} waiting` : 'Approvals';
}
