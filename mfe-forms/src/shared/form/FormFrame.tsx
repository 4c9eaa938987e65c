import type { FormEvent, ReactNode, RefObject } from 'react';
import { FORM_ELEMENT_IDS, FORM_POST_PATHS, FORM_TOKEN_ATTRIBUTE, FORM_WITHOUT_SCRIPT_NOTE, HONEYPOT_FIELD, PRIVACY_CONSENT, PRIVACY_PATH, SHOWN_IF_REMOTE_FAILS_ATTRIBUTE, typeset, type FormName } from '@agency/shared';
import { Link } from '@agency/shared/router';
import styles from './Form.module.css';

interface FormFrameProps {
  /** Which form this is: where it posts itself before its script runs (or when none does), its ids (the element's, an anchor for links to it) and its form token. */
  form: FormName;
  title: string;
  hint: string;
  submitLabel: string;
  submitting: boolean;
  /** The first try failed and the submission is being tried again. */
  retrying?: boolean;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  formRef?: RefObject<HTMLFormElement | null>;
  children: ReactNode;
}

/** Heading, hint, the field grid, the submit button and the consent line every form of this remote has. */
export function FormFrame({ form, title, hint, submitLabel, submitting, retrying = false, onSubmit, formRef, children }: FormFrameProps) {
  // Named, not useId(): the server renders each form alone, where every useId() would be the same.
  const titleId = `${form}-form-title`;
  return (
    <form
      ref={formRef}
      id={FORM_ELEMENT_IDS[form]}
      action={FORM_POST_PATHS[form]}
      method="post"
      className={styles.form}
      aria-labelledby={titleId}
      aria-busy={submitting}
      onSubmit={onSubmit}
      // The server adds this form's token field at the end of the page, for a post without a script.
      {...{ [FORM_TOKEN_ATTRIBUTE]: form }}
    >
      <h3 className={styles.title} id={titleId}>
        {title}
      </h3>
      <p className={styles.hint}>
        {typeset(hint)} Поля, позначені <span aria-hidden="true">*</span>
        <span className={styles.visuallyHidden}>зірочкою</span>, обовʼязкові.
      </p>
      {/* Disabled while sending: what is typed then would be wiped by the reset after success. */}
      <fieldset className={styles.grid} disabled={submitting}>
        {children}
      </fieldset>
      {/* Spam trap: off-screen and out of the tab order, so only bots that fill every field fill it. */}
      <div className={styles.trap} aria-hidden="true">
        <label htmlFor={`${titleId}-${HONEYPOT_FIELD}`}>Ваш сайт</label>
        <input id={`${titleId}-${HONEYPOT_FIELD}`} name={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
      </div>
      <button className={styles.submit} type="submit" disabled={submitting}>
        {retrying ? 'Досі надсилаємо…' : submitting ? 'Надсилаємо…' : submitLabel}
      </button>
      {/* Said once while the form keeps trying, so the visitor waits rather than sending again. */}
      <p className={styles.status} role="status">
        {retrying ? 'Звʼязок зі сервером перервався — пробуємо ще раз. Не закривайте сторінку.' : ''}
      </p>
      {/* Shown by the shell only if this remote's code cannot load and the server's form stays. */}
      <p className={styles.status} hidden {...{ [SHOWN_IF_REMOTE_FAILS_ATTRIBUTE]: '' }}>
        {typeset(FORM_WITHOUT_SCRIPT_NOTE)}
      </p>
      {/* The forms collect phones, e-mails and CVs: say how they are used before the visitor sends them. */}
      <p className={styles.consent}>
        {typeset(PRIVACY_CONSENT.before)}
        <Link to={PRIVACY_PATH}>{PRIVACY_CONSENT.link}</Link>
        {PRIVACY_CONSENT.after}
      </p>
    </form>
  );
}
