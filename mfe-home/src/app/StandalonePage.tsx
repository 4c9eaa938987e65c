import '@agency/shared/styles/tokens.css';
import Hero from '../features/hero/Hero';
import About from '../features/about/About';
import Services from '../features/services/Services';
import Reasons from '../features/reasons/Reasons';
import Team from '../features/team/Team';
import Vacancies from '../features/vacancies/Vacancies';
import ContactDetails from '../features/contact-details/ContactDetails';

/** Every exposed module on one page, for developing this remote alone. */
export function StandalonePage() {
  return (
    <main>
      <Hero />
      <About />
      <Services />
      <Reasons />
      <Team />
      <Vacancies />
      <ContactDetails />
    </main>
  );
}
