import type { CSSProperties } from 'react';
import { ToastContainer } from 'react-toastify';
import { TOAST_CONTAINER, TOAST_GAP_PX, TOAST_WIDTH_PX } from '@agency/shared';
import styles from './SiteToastContainer.module.css';

// Toast width and the gap between toasts, from the shared constants.
const TOAST_SIZE = {
  '--toastify-toast-width': `${TOAST_WIDTH_PX}px`,
  '--toast-gap': `${TOAST_GAP_PX}px`,
} as CSSProperties;

/**
 * The site's one toast container, in the site's look. react-toastify adds its own stylesheet when
 * the container mounts; the rules here come later in the page and win over it.
 */
export function SiteToastContainer() {
  return <ToastContainer {...TOAST_CONTAINER} className={styles.toasts} style={TOAST_SIZE} />;
}
