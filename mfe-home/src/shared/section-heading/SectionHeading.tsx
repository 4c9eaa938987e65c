import type { ReactNode } from 'react';
import { typeset } from '@agency/shared';
import styles from './SectionHeading.module.css';

interface SectionHeadingProps {
  /** Short label above the heading. */
  eyebrow: string;
  title: ReactNode;
  lead?: ReactNode;
  /** Light text for sections on a dark background. */
  inverse?: boolean;
}

/**
 * The h2 block every home section opens with, so the page reads with one rhythm. Text title and
 * lead are typeset here, once for every section.
 */
export function SectionHeading({ eyebrow, title, lead, inverse = false }: SectionHeadingProps) {
  return (
    <header className={inverse ? `${styles.heading} ${styles.inverse}` : styles.heading}>
      <p className={styles.eyebrow}>{eyebrow}</p>
      <h2 className={styles.title}>{typeof title === 'string' ? typeset(title) : title}</h2>
      {lead && <p className={styles.lead}>{typeof lead === 'string' ? typeset(lead) : lead}</p>}
    </header>
  );
}
