import { useEffect } from 'react';
import { useNavigate } from '@agency/shared/router';

/**
 * Goes to `to` once shown. (react-router's Navigate would do, but the router module every public
 * page loads is shared with a fixed list of exports, kept small on purpose.)
 */
export function Redirect({ to }: { to: string }) {
  const navigate = useNavigate();
  useEffect(() => {
    navigate(to, { replace: true });
  }, [navigate, to]);
  return null;
}
