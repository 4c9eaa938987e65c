import type { ReactNode } from 'react';
import { Link } from '@agency/shared/router';
import styles from './MessagePage.module.css';

interface MessagePageProps {
  /** Shown large above the title, for the eye only (a status code). */
  code?: string;
  title: string;
  text?: ReactNode;
  link: { to: string; label: string };
}

/** A page that says one thing and offers one way on: not found, a form's result. */
export function MessagePage({ code, title, text, link }: MessagePageProps) {
  return (
    <div className={styles.page}>
      {code !== undefined && (
        <p className={styles.code} aria-hidden="true">
          {code}
        </p>
      )}
      <h1 className={styles.title}>{title}</h1>
      {text !== undefined && <p className={styles.text}>{text}</p>}
      <Link to={link.to} className={styles.link}>
        {link.label}
      </Link>
    </div>
  );
}
