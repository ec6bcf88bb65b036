// Layout route guarding the dashboard: waits for the session check, sends visitors
// without a session to /auth (replacing the history entry, so Back does not loop),
// and re-renders whenever the session changes (for example after sign-out). With
// `returnHere` the auth page is told (?next=) to come back to the guarded URL afterwards.
import { useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { LoadingScreen } from '../../../shared/components/loading-screen';
import { useSessionStore } from '../../../shared/session/use-session-store';
import { signInUrlReturningTo } from '../utils/return-path';

export function RequireSession({ returnHere = false }: { returnHere?: boolean }) {
  const location = useLocation();
  const status = useSessionStore((state) => state.status);
  const check = useSessionStore((state) => state.check);

  useEffect(() => {
    if (status === 'unknown') void check();
  }, [status, check]);

  if (status === 'signed-out') {
    return <Navigate to={returnHere ? signInUrlReturningTo(`${location.pathname}${location.search}${location.hash}`) : '/auth'} replace />;
  }
  if (status !== 'signed-in') return <LoadingScreen />;
  return <Outlet />;
}
