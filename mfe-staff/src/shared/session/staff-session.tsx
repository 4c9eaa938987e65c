import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { roleAllows, type StaffAccess, type StaffSession } from '@agency/shared';
import { setCsrfToken, setUnauthorizedHandler, staffGet, staffSend, statusOf } from '../api/staff-api';

interface SessionState {
  /** undefined while asked, null when nobody is signed in. */
  session: StaffSession | null | undefined;
  /** After a sign-in (its answer) or to ask the server again (no argument). */
  refresh(next?: StaffSession | null): Promise<void>;
  signOut(): Promise<void>;
  /** Whether the signed-in person may do what `access` needs (a role, «Релізи», or just being signed in). */
  may(access: StaffAccess): boolean;
}

const SessionContext = createContext<SessionState | undefined>(undefined);

/** Who is signed in, for the whole console; a 401 from any request ends it (see useStaffRequest). */
export function StaffSessionProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<StaffSession | null | undefined>(undefined);

  const refresh = useCallback(async (next?: StaffSession | null) => {
    if (next !== undefined) {
      setCsrfToken(next?.csrfToken);
      setSession(next);
      return;
    }
    try {
      const current = await staffGet<StaffSession>('/session');
      setCsrfToken(current.csrfToken);
      setSession(current);
    } catch (error) {
      if (statusOf(error) !== 401) throw error;
      setCsrfToken(undefined);
      setSession(null);
    }
  }, []);

  const signOut = useCallback(async () => {
    await staffSend('post', '/sign-out').catch(() => undefined);
    setCsrfToken(undefined);
    setSession(null);
  }, []);

  useEffect(() => {
    setUnauthorizedHandler(() => {
      setCsrfToken(undefined);
      setSession(null);
    });
    refresh().catch(() => setSession(null));
  }, [refresh]);

  const value = useMemo<SessionState>(
    () => ({ session, refresh, signOut, may: (access) => !!session && roleAllows(session.member.role, access) }),
    [session, refresh, signOut],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useStaffSession(): SessionState {
  const state = useContext(SessionContext);
  if (!state) throw new Error('useStaffSession outside StaffSessionProvider');
  return state;
}
