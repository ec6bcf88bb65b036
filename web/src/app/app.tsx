import { RouterProvider } from 'react-router';
import { AppProviders } from './providers';
import type { DataRouter } from './router';

export function App({ router }: { router: DataRouter }) {
  return (
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
