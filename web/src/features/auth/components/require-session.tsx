// Layout route guarding the dashboard: waits for the session check, sends visitors
// without a session to /auth (replacing the history entry, so Back does not loop),
// and re-renders whenever the session changes (for example after sign-out).
import { useEffect } from 'react';
import { Navigate, Outlet } from 'react-router';
import { LoadingScreen } from '../../../shared/components/loading-screen';
import { useSessionStore } from '../../../shared/session/use-session-store';

export function RequireSession() {
  const status = useSessionStore((state) => state.status);
  const check = useSessionStore((state) => state.check);

  useEffect(() => {
    if (status === 'unknown') void check();
  }, [status, check]);

  if (status === 'signed-out') return <Navigate to="/auth" replace />;
  if (status !== 'signed-in') return <LoadingScreen />;
  return <Outlet />;
}
