// Every screen of the product and its URL (product spec, section 2).
// Each page is its own chunk, fetched when its route is first matched (react-router's `lazy`),
// so the landing page downloads none of the dashboard, auth, agent, docs, blog or status code.
// The router waits for the chunk before it shows the new page: a navigation keeps the current
// page on screen (RootLayout draws a thin progress bar if the wait is noticeable), and the first
// page of a visit shows the light `hydrateFallbackElement`. A chunk that fails to download
// rejects the route's `lazy`, which the router shows with the root's errorElement.
// The public pages are also pre-rendered by the build from these same routes (entry-server.tsx);
// such a page is hydrated once its chunk is in (`loadRouteModules`), without the fallback.
import type { ComponentType } from 'react';
import { createBrowserRouter, matchRoutes, type RouteObject, type RouterProviderProps } from 'react-router';
import { RequireSession } from '../features/auth/components/require-session';
import { RouteErrorPage } from '../features/errors/components/route-error-page';
import { sessionStore } from '../shared/session/use-session-store';
import { PageLoadingFallback } from './page-loading-fallback';
import { RootLayout } from './root-layout';

// One loader per page module. Calling one again returns the same module: the browser fetches
// a chunk once, so a preload and the route's own `lazy` share the download.
const pages = {
  landing: () => import('../features/landing/components/landing-page'),
  auth: () => import('../features/auth/components/auth-page'),
  dataLayout: () => import('./data-layout'),
  dashboard: () => import('../features/dashboard/components/dashboard-page'),
  agentConnect: () => import('../features/agents/components/agent-connect-page'),
  agentTransactions: () => import('../features/agents/components/agent-transactions-page'),
  agent: () => import('../features/agents/components/agent-page'),
  payments: () => import('../features/payments/components/payments-page'),
  payment: () => import('../features/payments/components/payment-page'),
  approvals: () => import('../features/payments/components/approvals-page'),
  policies: () => import('../features/policies/components/policies-page'),
  webhooks: () => import('../features/webhooks/components/webhooks-page'),
  apiKeys: () => import('../features/api-keys/components/api-keys-page'),
  audit: () => import('../features/audit/components/audit-page'),
  oauthConsent: () => import('../features/oauth/components/oauth-consent-page'),
  budgetApproval: () => import('../features/budget-approval/components/budget-approval-page'),
  consoleLayout: () => import('./console-layout'),
  blogList: () => import('../features/blog/components/blog-list-page'),
  blogPost: () => import('../features/blog/components/blog-post-page'),
  docs: () => import('../features/docs/components/docs-page'),
  status: () => import('../features/status/components/status-page'),
  responsibleAi: () => import('../features/responsible-ai/components/responsible-ai-page'),
  terms: () => import('../features/legal/components/terms-page'),
  privacy: () => import('../features/legal/components/privacy-page'),
  dpa: () => import('../features/legal/components/dpa-page'),
  notFound: () => import('../features/errors/components/not-found-page'),
};

/** The names of a module's exports that are React components. */
type ComponentExports<M> = { [K in keyof M]: M[K] extends ComponentType ? K : never }[keyof M] & string;

/**
 * A route's `lazy` for a page: the module's `name` export becomes the route's Component.
 * The function form on purpose: react-router surfaces a rejected lazy *function* as the route's
 * error (the errorElement shows it), whereas a rejected per-property `lazy: { Component }` is
 * swallowed when the route has no loader, leaving an empty page.
 */
function page<M>(load: () => Promise<M>, name: ComponentExports<M>) {
  return async () => ({ Component: (await load())[name] as ComponentType });
}

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteErrorPage />,
    hydrateFallbackElement: <PageLoadingFallback />,
    children: [
      { index: true, lazy: page(pages.landing, 'LandingPage') },
      { path: 'auth', lazy: page(pages.auth, 'AuthPage') },
      {
        // The pages that read from the server (the owner's pages and the public status page),
        // inside the data layer (TanStack Query + tRPC), which is a chunk of its own like them.
        // Any other page that starts reading from the server through tRPC belongs in here too.
        lazy: page(pages.dataLayout, 'DataLayout'),
        children: [
          {
            // Everything under /dashboard needs a signed-in owner. The guard is tiny and stays in
            // the main chunk, so it can say 'Loading...' while the session is checked.
            element: <RequireSession />,
            children: [
              {
                // The owner console: one top bar (navigation, approvals badge, kill switch) and
                // one live stream for every page under it.
                lazy: page(pages.consoleLayout, 'ConsoleLayout'),
                children: [
                  { path: 'dashboard', lazy: page(pages.dashboard, 'DashboardPage') },
                  { path: 'dashboard/payments', lazy: page(pages.payments, 'PaymentsPage') },
                  { path: 'dashboard/payments/:intentId', lazy: page(pages.payment, 'PaymentPage') },
                  { path: 'dashboard/approvals', lazy: page(pages.approvals, 'ApprovalsPage') },
                  { path: 'dashboard/agents/:agentId', lazy: page(pages.agent, 'AgentPage') },
                  { path: 'dashboard/agents/:agentId/connect', lazy: page(pages.agentConnect, 'AgentConnectPage') },
                  { path: 'dashboard/agents/:agentId/transactions', lazy: page(pages.agentTransactions, 'AgentTransactionsPage') },
                  { path: 'dashboard/policies', lazy: page(pages.policies, 'PoliciesPage') },
                  { path: 'dashboard/webhooks', lazy: page(pages.webhooks, 'WebhooksPage') },
                  { path: 'dashboard/api-keys', lazy: page(pages.apiKeys, 'ApiKeysPage') },
                  { path: 'dashboard/audit', lazy: page(pages.audit, 'AuditPage') },
                ],
              },
            ],
          },
          {
            // The OAuth consent page (issue 42): signed-in owners only, outside the console's
            // chrome. A signed-out owner signs in and comes back to the same request.
            element: <RequireSession returnHere />,
            // The one-time approval link of an agent's budget request (issue 43), likewise.
            children: [
              { path: 'oauth/consent', lazy: page(pages.oauthConsent, 'OAuthConsentPage') },
              { path: 'approve/:token', lazy: page(pages.budgetApproval, 'BudgetApprovalPage') },
            ],
          },
          { path: 'status', lazy: page(pages.status, 'StatusPage') },
        ],
      },
      { path: 'blog', lazy: page(pages.blogList, 'BlogListPage') },
      { path: 'blog/:postId', lazy: page(pages.blogPost, 'BlogPostPage') },
      { path: 'docs', lazy: page(pages.docs, 'DocsPage') },
      { path: 'responsible-ai', lazy: page(pages.responsibleAi, 'ResponsibleAiPage') },
      { path: 'terms', lazy: page(pages.terms, 'TermsPage') },
      { path: 'privacy', lazy: page(pages.privacy, 'PrivacyPage') },
      { path: 'dpa', lazy: page(pages.dpa, 'DpaPage') },
      { path: '*', lazy: page(pages.notFound, 'NotFoundPage') },
    ],
  },
];

export type DataRouter = RouterProviderProps['router'];

/**
 * Loads the page modules of the routes that match `pathname` and puts their components in
 * place of `lazy`, as the router would after it starts. Hydrating a pre-rendered page needs
 * this first: a router that still has a lazy route to load draws the loading fallback, not
 * the page the HTML holds. Rejects when a chunk fails to download.
 */
export async function loadRouteModules(pathname: string): Promise<void> {
  const matches = matchRoutes(routes, pathname) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      Object.assign(route, await route.lazy(), { lazy: undefined });
    }),
  );
}

/** The browser's router, with the dashboard preloads below. */
export function createAppRouter(): DataRouter {
  const router = createBrowserRouter(routes);
  router.subscribe((state) => {
    if (dashboardPreloaded || state.navigation.state !== 'idle' || state.location.pathname !== '/auth') return;
    if (typeof requestIdleCallback === 'function') requestIdleCallback(preloadDashboard, { timeout: 2_000 });
    else setTimeout(preloadDashboard, 1_000);
  });
  sessionStore.subscribe((state, previous) => {
    if (state.status === 'signed-in' && previous.status !== 'signed-in') preloadDashboard();
  });
  return router;
}

// The dashboard is where the auth page leads: fetch its chunk while the owner is still typing
// (once the browser is idle on /auth), and at the latest when a session appears (sign-in,
// sign-up, or a session found on load), instead of after the redirect. A failed preload is
// ignored here: opening the dashboard asks for the chunk again, and a failure then is shown
// by the router's error page.
let dashboardPreloaded = false;
function preloadDashboard(): void {
  if (dashboardPreloaded) return;
  dashboardPreloaded = true;
  Promise.all([pages.dataLayout(), pages.dashboard()]).catch(() => undefined);
}
