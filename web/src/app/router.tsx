// Every screen of the product and its URL (product spec, section 2).
import { createBrowserRouter, type RouteObject } from 'react-router';
import { AgentConnectPage } from '../features/agents/components/agent-connect-page';
import { AgentTransactionsPage } from '../features/agents/components/agent-transactions-page';
import { AuthPage } from '../features/auth/components/auth-page';
import { RequireSession } from '../features/auth/components/require-session';
import { BlogListPage } from '../features/blog/components/blog-list-page';
import { BlogPostPage } from '../features/blog/components/blog-post-page';
import { DashboardPage } from '../features/dashboard/components/dashboard-page';
import { DocsPage } from '../features/docs/components/docs-page';
import { NotFoundPage } from '../features/errors/components/not-found-page';
import { RouteErrorPage } from '../features/errors/components/route-error-page';
import { LandingPage } from '../features/landing/components/landing-page';
import { DpaPage } from '../features/legal/components/dpa-page';
import { PrivacyPage } from '../features/legal/components/privacy-page';
import { TermsPage } from '../features/legal/components/terms-page';
import { ResponsibleAiPage } from '../features/responsible-ai/components/responsible-ai-page';
import { StatusPage } from '../features/status/components/status-page';
import { RootLayout } from './root-layout';

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteErrorPage />,
    children: [
      { index: true, element: <LandingPage /> },
      { path: 'auth', element: <AuthPage /> },
      {
        // Everything under /dashboard needs a signed-in owner.
        element: <RequireSession />,
        children: [
          { path: 'dashboard', element: <DashboardPage /> },
          { path: 'dashboard/agents/:agentId/connect', element: <AgentConnectPage /> },
          { path: 'dashboard/agents/:agentId/transactions', element: <AgentTransactionsPage /> },
        ],
      },
      { path: 'blog', element: <BlogListPage /> },
      { path: 'blog/:postId', element: <BlogPostPage /> },
      { path: 'docs', element: <DocsPage /> },
      { path: 'status', element: <StatusPage /> },
      { path: 'responsible-ai', element: <ResponsibleAiPage /> },
      { path: 'terms', element: <TermsPage /> },
      { path: 'privacy', element: <PrivacyPage /> },
      { path: 'dpa', element: <DpaPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export const router = createBrowserRouter(routes);
