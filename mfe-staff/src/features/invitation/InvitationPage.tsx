import { useEffect, useState } from 'react';
import { browserSupportsWebAuthn, startRegistration } from '@simplewebauthn/browser';
import {
  STAFF_PATHS,
  STAFF_ROLE_LABELS,
  type CredentialOptionsResponse,
  type InvitationAccepted,
  type InvitationInfo,
  type TotpSetupResponse,
} from '@agency/shared';
import { useNavigate } from '@agency/shared/router';
import { messageOf, staffSend } from '../../shared/api/staff-api';
import { useStaffSession } from '../../shared/session/staff-session';
import styles from '../../shared/ui/console.module.css';
import { ErrorAlert } from '../../shared/ui/ErrorAlert';
import { kyivDateTime } from '../../shared/ui/kyiv-time';
import { useDocumentTitle } from '../../shared/ui/use-document-title';
import { RecoveryCodes } from './RecoveryCodes';
import { TotpSetupForm } from './TotpSetupForm';

/** The last token taken from an address: a second read (React's strict mode reads twice) finds it here. */
let takenToken = '';

/** The token after `#`; the address then drops it, so it stays in no history entry. */
function takeToken(): string {
  const fromAddress = window.location.hash.slice(1);
  if (fromAddress) {
    takenToken = fromAddress;
    window.history.replaceState(window.history.state, '', window.location.pathname);
  }
  return takenToken;
}

/**
 * `/staff/invite#<token>`: the invited person registers a passkey, or an authenticator app where
 * the device has no passkeys, and gets ten recovery codes; then they are signed in.
 */
export function InvitationPage() {
  useDocumentTitle('Запрошення');
  const navigate = useNavigate();
  const { refresh } = useStaffSession();
  const [token] = useState(takeToken);
  const [invitation, setInvitation] = useState<InvitationInfo | null | undefined>(undefined);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const [totp, setTotp] = useState<TotpSetupResponse | undefined>(undefined);
  const [accepted, setAccepted] = useState<InvitationAccepted | undefined>(undefined);

  useEffect(() => {
    if (!token) {
      setInvitation(null);
      return;
    }
    staffSend<InvitationInfo>('post', '/invitation', { token }).then(setInvitation, (failure: unknown) => {
      setInvitation(null);
      setError(messageOf(failure));
    });
  }, [token]);

  async function run(step: () => Promise<void>) {
    setError('');
    setBusy(true);
    try {
      await step();
    } catch (failure) {
      setError(failure instanceof Error && failure.name === 'NotAllowedError' ? 'Реєстрацію ключа доступу скасовано' : messageOf(failure));
    } finally {
      setBusy(false);
    }
  }

  const registerPasskey = () =>
    run(async () => {
      const { challengeId, options } = await staffSend<CredentialOptionsResponse>('post', '/invitation/passkey/options', { token });
      const credential = await startRegistration({ optionsJSON: options as never });
      setAccepted(await staffSend<InvitationAccepted>('post', '/invitation/passkey', { token, challengeId, credential }));
    });

  const startTotp = () => run(async () => setTotp(await staffSend<TotpSetupResponse>('post', '/invitation/totp/setup', { token })));

  const confirmTotp = (code: string) =>
    run(async () => setAccepted(await staffSend<InvitationAccepted>('post', '/invitation/totp', { token, challengeId: totp!.challengeId, code })));

  if (accepted) {
    return (
      <div className={`${styles.panel} ${styles.narrow}`}>
        <RecoveryCodes
          codes={accepted.recoveryCodes}
          onDone={() => {
            void refresh(accepted.session).then(() => navigate(STAFF_PATHS.home));
          }}
        />
      </div>
    );
  }

  return (
    <div className={`${styles.panel} ${styles.narrow} ${styles.stack}`}>
      <h1>Запрошення до консолі</h1>
      {invitation === undefined && <p>Перевіряємо запрошення…</p>}
      {invitation === null && !error && <p className={styles.error}>Посилання неповне: відкрийте його з листа повністю.</p>}
      {invitation && (
        <>
          <p>
            Запрошення для <strong>{invitation.email}</strong>, роль «{STAFF_ROLE_LABELS[invitation.role]}»
            {invitation.releaseApps.length > 0 && ` (застосунки: ${invitation.releaseApps.join(', ')})`}. Діє до {kyivDateTime(invitation.expiresAt)}.
          </p>
          {!totp && browserSupportsWebAuthn() && (
            <button type="button" className={styles.button} onClick={registerPasskey} disabled={busy}>
              Зареєструвати ключ доступу
            </button>
          )}
          {!totp && (
            <button type="button" className={styles.secondary} onClick={startTotp} disabled={busy}>
              Використати застосунок-автентифікатор
            </button>
          )}
          {totp && <TotpSetupForm setup={totp} busy={busy} onConfirm={confirmTotp} />}
        </>
      )}
      <ErrorAlert error={error} />
    </div>
  );
}
