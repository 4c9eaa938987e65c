import { useEffect, useState, type FormEvent } from 'react';
import { releaseAppsProblem, STAFF_ROLE_LABELS, STAFF_ROLES, type InviteResponse, type MemberList, type SessionInfo, type StaffRole } from '@agency/shared';
import { messageOf, staffGet, staffSend } from '../../shared/api/staff-api';
import { useStaffSession } from '../../shared/session/staff-session';
import styles from '../../shared/ui/console.module.css';
import { ErrorAlert } from '../../shared/ui/ErrorAlert';
import { kyivDateTime } from '../../shared/ui/kyiv-time';
import { useDocumentTitle } from '../../shared/ui/use-document-title';
import { SessionList } from '../account/SessionList';
import { ReleaseAppsFieldset } from './ReleaseAppsFieldset';

/** A member made a release manager, or one whose apps change: the apps chosen, not yet saved. */
interface AppsDraft {
  memberId: number;
  apps: string[];
}

/** A role as the API takes it: a release manager's with their apps. */
const rightsOf = (role: StaffRole, apps: readonly string[]) => (role === 'release_manager' ? { role, releaseApps: apps } : { role });

/**
 * `/staff/team` (admins): who is in the team, invitations, roles (a release manager's with the
 * apps they may release), removals and anyone's sessions.
 */
export function TeamPage() {
  useDocumentTitle('Команда');
  const { session } = useStaffSession();
  const [members, setMembers] = useState<MemberList>([]);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<StaffRole>('viewer');
  const [apps, setApps] = useState<string[]>([]);
  const [appsDraft, setAppsDraft] = useState<AppsDraft | undefined>(undefined);
  const [invitation, setInvitation] = useState<InviteResponse | undefined>(undefined);
  const [sessionsOf, setSessionsOf] = useState<{ memberId: number; sessions: SessionInfo[] } | undefined>(undefined);
  const [error, setError] = useState('');

  const load = () => staffGet<MemberList>('/members').then(setMembers, (failure: unknown) => setError(messageOf(failure)));
  useEffect(() => {
    void load();
  }, []);

  async function run(step: () => Promise<void>) {
    setError('');
    try {
      await step();
    } catch (failure) {
      setError(messageOf(failure));
    }
  }

  const invite = (event: FormEvent) => {
    event.preventDefault();
    const problem = releaseAppsProblem(role, role === 'release_manager' ? apps : []);
    if (problem !== undefined) return setError(problem);
    void run(async () => {
      setInvitation(await staffSend<InviteResponse>('post', '/members/invitations', { email, ...rightsOf(role, apps) }));
      setEmail('');
      setApps([]);
    });
  };
  const saveRights = (id: number, next: StaffRole, nextApps: readonly string[]) =>
    run(async () => {
      await staffSend('patch', `/members/${id}`, rightsOf(next, nextApps));
      setAppsDraft(undefined);
      await load();
    });
  /** Another role is saved at once; a release manager's asks for the apps first. */
  const changeRole = (member: MemberList[number], next: StaffRole) => {
    if (next === 'release_manager') return setAppsDraft({ memberId: member.id, apps: member.releaseApps });
    setAppsDraft(undefined);
    void saveRights(member.id, next, []);
  };
  const saveApps = (draft: AppsDraft) => {
    const problem = releaseAppsProblem('release_manager', draft.apps);
    if (problem !== undefined) return setError(problem);
    void saveRights(draft.memberId, 'release_manager', draft.apps);
  };
  const remove = (id: number, who: string) =>
    window.confirm(`Прибрати ${who} з команди? Усі сеанси цієї людини завершаться.`) && run(async () => (await staffSend('delete', `/members/${id}`), await load()));
  const showSessions = (memberId: number) => run(async () => setSessionsOf({ memberId, sessions: await staffGet<SessionInfo[]>(`/members/${memberId}/sessions`) }));
  const endSession = (id: string) =>
    run(async () => {
      await staffSend('delete', `/sessions/${id}`);
      if (sessionsOf) await showSessions(sessionsOf.memberId);
    });

  return (
    <div className={styles.stack}>
      <h1>Команда</h1>
      <form className={`${styles.panel} ${styles.row}`} onSubmit={invite}>
        <label className={styles.field}>
          E-mail
          <input type="email" required value={email} onChange={(event) => setEmail(event.target.value)} />
        </label>
        <label className={styles.field}>
          Роль
          <select value={role} onChange={(event) => setRole(event.target.value as StaffRole)}>
            {STAFF_ROLES.map((each) => (
              <option key={each} value={each}>
                {STAFF_ROLE_LABELS[each]}
              </option>
            ))}
          </select>
        </label>
        {role === 'release_manager' && <ReleaseAppsFieldset apps={apps} onChange={setApps} />}
        <button type="submit" className={styles.button}>
          Запросити
        </button>
      </form>
      {invitation && (
        <p className={styles.notice} role="status">
          Надішліть це одноразове посилання (діє до {kyivDateTime(invitation.expiresAt)}): <code data-testid="invitation-link">{invitation.link}</code>
        </p>
      )}
      <ErrorAlert error={error} />
      <div className={styles.tableWrap}>
        <table className={styles.table}>
          <thead>
            <tr>
              <th scope="col">E-mail</th>
              <th scope="col">Роль</th>
              <th scope="col">У команді з</th>
              <th scope="col">Дії</th>
            </tr>
          </thead>
          <tbody>
            {members.map((member) => {
              const draft = appsDraft?.memberId === member.id ? appsDraft : undefined;
              return (
                <tr key={member.id}>
                  <td>{member.email}</td>
                  <td>
                    <select aria-label={`Роль ${member.email}`} value={draft ? 'release_manager' : member.role} onChange={(event) => changeRole(member, event.target.value as StaffRole)}>
                      {STAFF_ROLES.map((each) => (
                        <option key={each} value={each}>
                          {STAFF_ROLE_LABELS[each]}
                        </option>
                      ))}
                    </select>
                    {member.role === 'release_manager' && !draft && (
                      <div className={styles.muted}>
                        Застосунки: {member.releaseApps.join(', ')}{' '}
                        <button type="button" className={styles.link} aria-label={`Змінити застосунки ${member.email}`} onClick={() => setAppsDraft({ memberId: member.id, apps: member.releaseApps })}>
                          Змінити
                        </button>
                      </div>
                    )}
                    {draft && (
                      <div className={styles.stack}>
                        <ReleaseAppsFieldset apps={draft.apps} onChange={(next) => setAppsDraft({ ...draft, apps: next })} />
                        <div className={styles.row}>
                          <button type="button" className={styles.button} onClick={() => saveApps(draft)}>
                            Зберегти
                          </button>
                          <button type="button" className={styles.secondary} onClick={() => setAppsDraft(undefined)}>
                            Скасувати
                          </button>
                        </div>
                      </div>
                    )}
                  </td>
                  <td>{kyivDateTime(member.createdAt)}</td>
                  <td className={styles.row}>
                    <button type="button" className={styles.link} onClick={() => void showSessions(member.id)}>
                      Сеанси
                    </button>
                    {member.id !== session?.member.id && (
                      <button type="button" className={styles.link} onClick={() => void remove(member.id, member.email)}>
                        Прибрати
                      </button>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {sessionsOf && (
        <section className={styles.panel}>
          <h2>Сеанси {members.find((member) => member.id === sessionsOf.memberId)?.email}</h2>
          <SessionList sessions={sessionsOf.sessions} onEnd={(id) => void endSession(id)} />
        </section>
      )}
    </div>
  );
}
