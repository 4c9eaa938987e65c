import '@agency/shared/styles/tokens.css';
// Only this development page hosts toasts itself; on the site the shell's container shows them.
import 'react-toastify/dist/ReactToastify.css';
import { ToastContainer } from 'react-toastify';
import { TOAST_CONTAINER } from '@agency/shared';
import JobApplicationForm from '../features/job-application/JobApplicationForm';
import ContactForm from '../features/contact/ContactForm';
import styles from './StandalonePage.module.css';

/** Every exposed module on one page, for developing this remote alone (`npm run dev -w mfe-forms`). */
export function StandalonePage() {
  return (
    <main className={styles.page}>
      <h1 className={styles.title}>Форми «Хвилі» — сторінка розробки</h1>
      <div className={styles.columns}>
        <JobApplicationForm />
        <ContactForm />
      </div>
      <ToastContainer {...TOAST_CONTAINER} />
    </main>
  );
}
