import { useState, type FormEvent } from 'react';
import { browserSupportsWebAuthn, startAuthentication } from '@simplewebauthn/browser';
import { STAFF_PATHS, type CredentialOptionsResponse, type StaffSession } from '@agency/shared';
import { useNavigate } from '@agency/shared/router';
import { messageOf, staffSend } from '../../shared/api/staff-api';
import { useStaffSession } from '../../shared/session/staff-session';
import styles from '../../shared/ui/console.module.css';
import { ErrorAlert } from '../../shared/ui/ErrorAlert';
import { useDocumentTitle } from '../../shared/ui/use-document-title';

type CodeKind = 'app' | 'recovery';

/**
 * `/staff/login`: a passkey (no e-mail needed), or an e-mail with a code from the authenticator
 * app, or with a recovery code. Every failure is said in one line; none tells whether an e-mail
 * has an account.
 */
export function SignInPage() {
  useDocumentTitle('Вхід');
  const { refresh } = useStaffSession();
  const navigate = useNavigate();
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const [kind, setKind] = useState<CodeKind>('app');
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');

  async function signedIn(session: StaffSession) {
    await refresh(session);
    navigate(STAFF_PATHS.home);
  }

  async function withPasskey() {
    setError('');
    setBusy(true);
    try {
      const { challengeId, options } = await staffSend<CredentialOptionsResponse>('post', '/sign-in/passkey/options');
      const credential = await startAuthentication({ optionsJSON: options as never });
      await signedIn(await staffSend<StaffSession>('post', '/sign-in/passkey', { challengeId, credential }));
    } catch (failure) {
      setError(failure instanceof Error && failure.name === 'NotAllowedError' ? 'Вхід з ключем доступу скасовано' : messageOf(failure));
    } finally {
      setBusy(false);
    }
  }

  async function withCode(event: FormEvent) {
    event.preventDefault();
    setError('');
    setBusy(true);
    try {
      await signedIn(await staffSend<StaffSession>('post', kind === 'app' ? '/sign-in/code' : '/sign-in/recovery', { email, code: code.trim() }));
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className={`${styles.panel} ${styles.narrow} ${styles.stack}`}>
      <h1>Вхід до консолі</h1>
      {browserSupportsWebAuthn() && (
        <button type="button" className={styles.button} onClick={withPasskey} disabled={busy}>
          Увійти з ключем доступу
        </button>
      )}
      <form className={styles.stack} onSubmit={withCode}>
        <h2>{kind === 'app' ? 'Або e-mail і код із застосунку' : 'Або e-mail і код відновлення'}</h2>
        <label className={styles.field}>
          E-mail
          <input type="email" autoComplete="username" required value={email} onChange={(event) => setEmail(event.target.value)} />
        </label>
        <label className={styles.field}>
          {kind === 'app' ? 'Код із застосунку' : 'Код відновлення'}
          <input
            required
            autoComplete="one-time-code"
            inputMode={kind === 'app' ? 'numeric' : 'text'}
            pattern={kind === 'app' ? '[0-9]{6}' : '[A-Za-z2-7]{5}-?[A-Za-z2-7]{5}'}
            value={code}
            onChange={(event) => setCode(event.target.value)}
          />
        </label>
        <button type="submit" className={styles.button} disabled={busy}>
          Увійти
        </button>
        <button type="button" className={styles.link} onClick={() => setKind(kind === 'app' ? 'recovery' : 'app')}>
          {kind === 'app' ? 'Немає застосунку? Увійти з кодом відновлення' : 'Увійти з кодом із застосунку'}
        </button>
      </form>
      <ErrorAlert error={error} />
    </div>
  );
}
