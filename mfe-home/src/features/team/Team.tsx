import { typeset } from '@agency/shared';
import { SectionHeading } from '../../shared/section-heading/SectionHeading';
import { TEAM_MEMBERS } from './team-members';
import styles from './Team.module.css';

const PHOTO_SIZE = 160;

/** The three people behind the agency. */
export default function Team() {
  return (
    <div>
      <SectionHeading
        eyebrow="Команда"
        title="Люди, які відповідають за ваш результат"
        lead="За кожним проєктом стоять фахівці, яких ви знаєте на імʼя."
      />
      <ul className={styles.list}>
        {TEAM_MEMBERS.map((member) => (
          <li key={member.name} className={styles.card}>
            <img
              className={styles.photo}
              src={member.photo}
              alt={`${member.name}, ${member.position.toLowerCase()}`}
              width={PHOTO_SIZE}
              height={PHOTO_SIZE}
              loading="lazy"
              decoding="async"
            />
            <h3 className={styles.name}>{member.name}</h3>
            <p className={styles.position}>{member.position}</p>
            <blockquote className={styles.quote}>
              <p>{typeset(member.quote)}</p>
            </blockquote>
          </li>
        ))}
      </ul>
    </div>
  );
}
