import { useState, type FormEvent } from 'react';
import type { TotpSetupResponse } from '@agency/shared';
import styles from '../../shared/ui/console.module.css';

/**
 * An authenticator app's new secret: the QR code to scan, the same secret as text to type, and
 * the first code to confirm the app shows the same codes as the server expects.
 */
export function TotpSetupForm({ setup, busy, onConfirm }: { setup: TotpSetupResponse; busy: boolean; onConfirm(code: string): void }) {
  const [code, setCode] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onConfirm(code.trim());
  };
  return (
    <form className={styles.stack} onSubmit={submit}>
      <p>Відскануйте код у застосунку-автентифікаторі (Google Authenticator, 1Password, Aegis тощо) або введіть ключ вручну.</p>
      <img src={setup.qrCode} alt="QR-код для застосунку-автентифікатора" width={240} height={240} />
      <p>
        Ключ: <code data-testid="totp-secret">{setup.secret}</code>
      </p>
      <label className={styles.field}>
        Код із застосунку
        <input required inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]{6}" value={code} onChange={(event) => setCode(event.target.value)} />
      </label>
      <button type="submit" className={styles.button} disabled={busy}>
        Підтвердити
      </button>
    </form>
  );
}
