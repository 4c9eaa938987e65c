import { useEffect, useState } from 'react';
import { browserSupportsWebAuthn, startRegistration } from '@simplewebauthn/browser';
import type { CredentialOptionsResponse, RecoveryCodesResponse, SessionInfo, TotpSetupResponse } from '@agency/shared';
import { messageOf, staffGet, staffSend } from '../../shared/api/staff-api';
import { useStaffSession } from '../../shared/session/staff-session';
import styles from '../../shared/ui/console.module.css';
import { ErrorAlert } from '../../shared/ui/ErrorAlert';
import { useDocumentTitle } from '../../shared/ui/use-document-title';
import { RecoveryCodes } from '../invitation/RecoveryCodes';
import { TotpSetupForm } from '../invitation/TotpSetupForm';
import { SessionList } from './SessionList';

/** `/staff/account`: one's own ways to sign in (passkeys, the app, recovery codes) and sessions. */
export function AccountPage() {
  useDocumentTitle('Мій обліковий запис');
  const { session, refresh } = useStaffSession();
  const [sessions, setSessions] = useState<SessionInfo[]>([]);
  const [totp, setTotp] = useState<TotpSetupResponse | undefined>(undefined);
  const [codes, setCodes] = useState<string[] | undefined>(undefined);
  const [message, setMessage] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const loadSessions = () => staffGet<SessionInfo[]>('/account/sessions').then(setSessions, (failure: unknown) => setError(messageOf(failure)));
  useEffect(() => {
    void loadSessions();
  }, []);

  async function run(step: () => Promise<string>) {
    setError('');
    setMessage('');
    setBusy(true);
    try {
      setMessage(await step());
      await refresh();
    } catch (failure) {
      setError(failure instanceof Error && failure.name === 'NotAllowedError' ? 'Дію скасовано' : messageOf(failure));
    } finally {
      setBusy(false);
    }
  }

  const addPasskey = () =>
    run(async () => {
      const { challengeId, options } = await staffSend<CredentialOptionsResponse>('post', '/account/passkeys/options');
      const credential = await startRegistration({ optionsJSON: options as never });
      await staffSend('post', '/account/passkeys', { challengeId, credential });
      return 'Ключ доступу додано';
    });

  const confirmTotp = (code: string) =>
    run(async () => {
      await staffSend('post', '/account/totp', { challengeId: totp!.challengeId, code });
      setTotp(undefined);
      return 'Застосунок-автентифікатор увімкнено';
    });

  const newCodes = () =>
    run(async () => {
      setCodes((await staffSend<RecoveryCodesResponse>('post', '/account/recovery-codes')).recoveryCodes);
      return '';
    });

  const endSession = (id: string) =>
    run(async () => {
      await staffSend('delete', `/account/sessions/${id}`);
      await loadSessions();
      return 'Сеанс завершено';
    });

  if (!session) return null;
  return (
    <div className={styles.stack}>
      <h1>Мій обліковий запис</h1>
      <section className={styles.panel}>
        <h2>Способи входу</h2>
        <p>
          {session.member.email}: ключів доступу {session.passkeys}; застосунок-автентифікатор {session.totp ? 'увімкнено' : 'не увімкнено'}; кодів
          відновлення лишилося {session.recoveryCodesLeft}.
        </p>
        <div className={styles.row}>
          {browserSupportsWebAuthn() && (
            <button type="button" className={styles.button} onClick={addPasskey} disabled={busy}>
              Додати ключ доступу
            </button>
          )}
          <button type="button" className={styles.secondary} disabled={busy} onClick={() => run(async () => (setTotp(await staffSend<TotpSetupResponse>('post', '/account/totp/setup')), ''))}>
            {session.totp ? 'Підключити застосунок заново' : 'Увімкнути застосунок-автентифікатор'}
          </button>
          <button type="button" className={styles.secondary} onClick={newCodes} disabled={busy}>
            Створити нові коди відновлення
          </button>
        </div>
        {totp && <TotpSetupForm setup={totp} busy={busy} onConfirm={confirmTotp} />}
        {codes && <RecoveryCodes codes={codes} onDone={() => setCodes(undefined)} />}
      </section>
      <section className={styles.panel}>
        <h2>Сеанси</h2>
        <SessionList sessions={sessions} onEnd={endSession} />
      </section>
      {message && <p role="status">{message}</p>}
      <ErrorAlert error={error} />
    </div>
  );
}
