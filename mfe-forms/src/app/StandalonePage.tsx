import '@agency/shared/styles/tokens.css';
import JobApplicationForm from '../features/job-application/JobApplicationForm';
import ContactForm from '../features/contact/ContactForm';

/** Every exposed module on one page, for developing this remote alone. */
export function StandalonePage() {
  return (
    <main>
      <JobApplicationForm />
      <ContactForm />
    </main>
  );
}
