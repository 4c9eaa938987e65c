import type { ReactNode } from 'react';
import { BRAND, STAFF_PATHS, type NoProps, type StaffAccess } from '@agency/shared';
import { Link, Route, Routes } from '@agency/shared/router';
import { AccountPage } from '../features/account/AccountPage';
import { ArticleEditorPage } from '../features/articles/ArticleEditorPage';
import { ArticlesPage } from '../features/articles/ArticlesPage';
import { AuditPage } from '../features/audit/AuditPage';
import { BackupsPage } from '../features/backups/BackupsPage';
import { DataRequestsPage } from '../features/data-requests/DataRequestsPage';
import { FollowUpPage } from '../features/follow-up/FollowUpPage';
import { InboxPage } from '../features/inbox/InboxPage';
import { InvitationPage } from '../features/invitation/InvitationPage';
import { LeadPage } from '../features/lead/LeadPage';
import { OverviewPage } from '../features/overview/OverviewPage';
import { ReleasesPage } from '../features/releases/ReleasesPage';
import { ResponseReportPage } from '../features/response-report/ResponseReportPage';
import { ServicesPage } from '../features/services/ServicesPage';
import { SignInPage } from '../features/sign-in/SignInPage';
import { SpamSettingsPage } from '../features/spam/SpamSettingsPage';
import { TeamPage } from '../features/team/TeamPage';
import { StaffSessionProvider, useStaffSession } from '../shared/session/staff-session';
import styles from '../shared/ui/console.module.css';
import { Redirect } from '../shared/ui/Redirect';

/** A page for the signed-in whose role allows `role` (roleAllows); others are sent to sign in, or told they may not. */
function Guarded({ role, children }: { role: StaffAccess; children: ReactNode }) {
  const { session, may } = useStaffSession();
  if (session === undefined) return <p>Завантаження…</p>;
  if (session === null) return <Redirect to={STAFF_PATHS.login} />;
  if (!may(role)) return <p className={styles.error}>Ваша роль не дозволяє відкрити цю сторінку.</p>;
  return children;
}

/** `/staff`: the inbox; a release manager, who works no leads, lands on «Релізи» instead. */
function ConsoleHome() {
  const { session } = useStaffSession();
  if (session?.member.role === 'release_manager') return <Redirect to={STAFF_PATHS.releases} />;
  return (
    <Guarded role="viewer">
      <InboxPage />
    </Guarded>
  );
}

/** The bar's links: each page a person's role may open (a release manager: «Релізи» and their account). */
function ConsoleBar() {
  const { session, may, signOut } = useStaffSession();
  return (
    <header className={styles.bar}>
      <span className={styles.brand}>Консоль «{BRAND.name}»</span>
      {session && (
        <nav className={styles.nav} aria-label="Консоль">
          {may('viewer') && <Link to={STAFF_PATHS.overview}>Огляд</Link>}
          {may('viewer') && <Link to={STAFF_PATHS.home}>Заявки</Link>}
          {may('viewer') && <Link to={STAFF_PATHS.responseReport}>Швидкість відповіді</Link>}
          {may('editor') && <Link to={STAFF_PATHS.articles}>Статті</Link>}
          {may('editor') && <Link to={STAFF_PATHS.services}>Послуги</Link>}
          {may('releases') && <Link to={STAFF_PATHS.releases}>Релізи</Link>}
          {may('admin') && <Link to={STAFF_PATHS.team}>Команда</Link>}
          {may('admin') && <Link to={STAFF_PATHS.audit}>Журнал</Link>}
          {may('admin') && <Link to={STAFF_PATHS.dataRequests}>Запити щодо даних</Link>}
          {may('admin') && <Link to={STAFF_PATHS.backups}>Резервні копії</Link>}
          {may('admin') && <Link to={STAFF_PATHS.spamSettings}>Спам</Link>}
          {may('admin') && <Link to={STAFF_PATHS.followUp}>Робота із заявками</Link>}
          <Link to={STAFF_PATHS.account}>Мій обліковий запис</Link>
          <button type="button" className={styles.link} style={{ color: 'inherit' }} onClick={() => void signOut()}>
            Вийти
          </button>
        </nav>
      )}
    </header>
  );
}

/**
 * The staff console, mounted by the shell at `/staff/*` (and loaded only there): the owner's
 * dashboard, the lead inbox, a lead's page, how fast the agency answers, articles and services for
 * editors, the team, the audit log, people's requests about their data, the database's backups,
 * the spam defence's settings, the work after a lead arrives (replies, response target,
 * assignment), «Релізи» for release managers (and admins, to read) and one's account; sign-in and
 * invitations for the rest.
 */
export default function StaffConsole(_props: NoProps) {
  return (
    <StaffSessionProvider>
      <div className={styles.frame}>
        <ConsoleBar />
        <main className={styles.main} id="staff-main">
          <Routes>
            <Route path="login" element={<SignInPage />} />
            <Route path="invite" element={<InvitationPage />} />
            <Route index element={<ConsoleHome />} />
            <Route path="leads/:id" element={<Guarded role="viewer"><LeadPage /></Guarded>} />
            <Route path="overview" element={<Guarded role="viewer"><OverviewPage /></Guarded>} />
            <Route path="report" element={<Guarded role="viewer"><ResponseReportPage /></Guarded>} />
            <Route path="account" element={<Guarded role="member"><AccountPage /></Guarded>} />
            <Route path="articles" element={<Guarded role="editor"><ArticlesPage /></Guarded>} />
            <Route path="articles/:id" element={<Guarded role="editor"><ArticleEditorPage /></Guarded>} />
            <Route path="services" element={<Guarded role="editor"><ServicesPage /></Guarded>} />
            <Route path="team" element={<Guarded role="admin"><TeamPage /></Guarded>} />
            <Route path="audit" element={<Guarded role="admin"><AuditPage /></Guarded>} />
            <Route path="data-requests" element={<Guarded role="admin"><DataRequestsPage /></Guarded>} />
            <Route path="backups" element={<Guarded role="admin"><BackupsPage /></Guarded>} />
            <Route path="spam" element={<Guarded role="admin"><SpamSettingsPage /></Guarded>} />
            <Route path="follow-up" element={<Guarded role="admin"><FollowUpPage /></Guarded>} />
            <Route path="releases" element={<Guarded role="releases"><ReleasesPage /></Guarded>} />
            <Route path="*" element={<p>Такої сторінки в консолі немає. <Link to={STAFF_PATHS.home}>До заявок</Link></p>} />
          </Routes>
        </main>
      </div>
    </StaffSessionProvider>
  );
}
