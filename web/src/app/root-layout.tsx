// The element of the top route: every page renders inside it.
import { Outlet } from 'react-router';
import { ScrollOnNavigate } from '../shared/scroll/scroll-on-navigate';

export function RootLayout() {
  return (
    <>
      <ScrollOnNavigate />
      <Outlet />
    </>
  );
}
