import type { ReactNode } from 'react';
import styles from './SectionHeading.module.css';

interface SectionHeadingProps {
  /** Short label above the heading. */
  eyebrow: string;
  title: ReactNode;
  lead?: ReactNode;
  /** Light text for sections on a dark background. */
  inverse?: boolean;
}

/** The h2 block every home section opens with, so the page reads with one rhythm. */
export function SectionHeading({ eyebrow, title, lead, inverse = false }: SectionHeadingProps) {
  return (
    <header className={inverse ? `${styles.heading} ${styles.inverse}` : styles.heading}>
      <p className={styles.eyebrow}>{eyebrow}</p>
      <h2 className={styles.title}>{title}</h2>
      {lead && <p className={styles.lead}>{lead}</p>}
    </header>
  );
}
