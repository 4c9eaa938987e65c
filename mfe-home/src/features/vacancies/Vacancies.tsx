import { BRAND, VACANCIES, applyForVacancyPath, formatSalaryRange, typeset } from '@agency/shared';
import { Link } from '@agency/shared/router';
import { SectionHeading } from '../../shared/section-heading/SectionHeading';
import styles from './Vacancies.module.css';

/** The three open positions; the shell puts the application form next to them. */
export default function Vacancies() {
  return (
    <div>
      <SectionHeading
        eyebrow="Вакансії"
        title="Приєднуйтеся до команди"
        lead={`Шукаємо людей, які люблять спілкуватися й доводити справи до кінця. Офіс ${BRAND.cityLocative} або гібридний формат.`}
      />
      <ul className={styles.list}>
        {VACANCIES.map((vacancy) => (
          <li key={vacancy.id} className={styles.card}>
            <h3 className={styles.title}>{vacancy.title}</h3>
            <p className={styles.salary}>
              <span className={styles.srOnly}>Зарплата: </span>
              {formatSalaryRange(vacancy.salaryFrom, vacancy.salaryTo)}
            </p>
            <p className={styles.description}>{typeset(vacancy.description)}</p>
            {/* Through the address: the application form (another remote) chooses this vacancy. */}
            <Link to={applyForVacancyPath(vacancy)} className={styles.apply} aria-label={`Відгукнутися: ${vacancy.title}`}>
              Відгукнутися
            </Link>
          </li>
        ))}
      </ul>
      <p className={styles.hint}>{typeset('Обрали посаду? Натисніть «Відгукнутися» або заповніть анкету — ми відповімо протягом двох робочих днів.')}</p>
    </div>
  );
}
