import { Link } from '@agency/shared/router';
import {
  BACKUP_RETENTION_DAYS,
  BRAND,
  CAMPAIGN_PARAMS,
  countOf,
  DATA_REQUEST_ANSWER_DAYS,
  DAYS,
  LEAD_RETENTION,
  MONTHS,
  NOTIFICATION_COPY_RETENTION_DAYS,
  PREVIEW_COOKIE,
  PREVIEW_TOKEN_HOURS,
  PRIVACY_PAGE_META,
  RELEASE_BUCKET_COOKIE,
  RELEASE_BUCKET_MAX_AGE_DAYS,
  TELEMETRY_CLIENT_RETENTION_DAYS,
  typeset,
  VISIT_SESSION_RETENTION_MONTHS,
} from '@agency/shared';
import { usePageMeta } from '../../frame/page/page-render-context';
import styles from './PrivacyPage.module.css';

interface PolicySection {
  heading: string;
  paragraphs?: readonly string[];
  items?: readonly string[];
}

// The agency's data-handling text. The forms collect names, phones, e-mails and CVs, so each
// form's consent line links here.
const POLICY: readonly PolicySection[] = [
  {
    heading: 'Хто обробляє ваші дані',
    paragraphs: [
      `${BRAND.fullName} (${BRAND.address}). З усіх питань щодо персональних даних пишіть на ${BRAND.email} або телефонуйте ${BRAND.phone}.`,
    ],
  },
  {
    heading: 'Які дані ми отримуємо',
    items: [
      'Із форми зворотного звʼязку: імʼя, електронну пошту, телефон, назву компанії, послугу, що вас цікавить, і текст повідомлення.',
      'Із заявки на вакансію: імʼя та прізвище, електронну пошту, телефон, місто, обрану вакансію і те, що ви розповіли про себе та свій досвід.',
      'Разом із кожним зверненням і заявкою — час надсилання, адресу сторінки, з якої їх надіслано, і те, як називає себе ваш браузер (його назву й версію). Щоб відсіювати спам, до них додаємо відбиток вашої IP-адреси, обчислений із секретним ключем сайту (не саму адресу), і видаляємо його разом зі зверненням чи заявкою. Іншої інформації про вас форми не збирають.',
      `Звідки ви прийшли на сайт: мітки кампанії та ідентифікатори кліку з посилання, яким ви відкрили сайт (${CAMPAIGN_PARAMS.join(', ')}), домен сайту, з якого ви перейшли, першу відкриту сторінку і час. Їх тримає ваш браузер у сховищі сеансу (sessionStorage), без файлів cookie, і забуває, щойно ви закриєте вкладку; до нас вони потрапляють лише разом зі зверненням чи заявкою і зберігаються з ними.`,
      'Щоб знати, які кампанії та сайти приводять звернення, сайт лічить відвідування: випадковий номер сеансу браузера (теж лише в sessionStorage) із джерелом, каналом і кампанією відвідування. Ні з вами, ні з вашим зверненням цей номер не повʼязаний.',
      'Сервер сайту, як і будь-який інший, записує в технічний журнал IP-адресу та час запитів — лише для захисту сайту від зловживань і пошуку збоїв.',
      `Поки нову версію сайту перевіряють на частині відвідувачів, сервер рахує, скільки різних відвідувачів її бачили й у скількох траплялися збої. Для цього він зберігає не IP-адресу, а її відбиток, обчислений із секретним ключем сайту, і видаляє його через ${countOf(TELEMETRY_CLIENT_RETENTION_DAYS, DAYS)}.`,
    ],
  },
  {
    heading: 'Файли cookie',
    items: [
      `${RELEASE_BUCKET_COOKIE} — суто службовий: випадкове число, за яким частина відвідувачів отримує нову версію сайту, поки ми перевіряємо, чи вона працює без збоїв. Сайт ставить його лише на час такої перевірки, і живе він ${RELEASE_BUCKET_MAX_AGE_DAYS} днів. Нічого про вас у ньому немає.`,
      `${PREVIEW_COOKIE} — лише в браузері працівника агенції, який відкрив посилання попереднього перегляду нової версії; живе до ${PREVIEW_TOKEN_HOURS} годин або доки він не вийде з перегляду.`,
      'Рекламних і аналітичних файлів cookie сайт не ставить.',
    ],
  },
  {
    heading: 'Навіщо',
    paragraphs: [
      'Лише щоб відповісти на ваше звернення, підготувати пропозицію або розглянути вашу кандидатуру на вакансію. Ми не надсилаємо розсилок без вашої окремої згоди і не продаємо дані третім особам.',
    ],
  },
  {
    heading: 'Хто їх бачить',
    paragraphs: [
      'Працівники агенції, які відповідають на звернення й займаються добором персоналу. Заявки доходять до них електронною поштою і в робочий чат Telegram; сервіси, що їх передають, отримують дані лише для доставки.',
    ],
  },
  {
    heading: 'Як довго зберігаємо',
    items: [
      `Звернення через форму зворотного звʼязку — ${countOf(LEAD_RETENTION.contactMonths, MONTHS)} після останньої дії з ним (відповіді, зміни статусу, нотатки, виправлення). Звернення, за яким ми уклали договір, зберігаємо, доки ви не попросите його видалити.`,
      `Заявки на вакансії — ${countOf(LEAD_RETENTION.applicationMonths, MONTHS)} після останньої дії з ними.`,
      `Повідомлення, які ми визнали спамом, — ${countOf(LEAD_RETENTION.spamDays, DAYS)}.`,
      `Копії звернень і заявок, які сервер пересилає працівникам, лишаються в черзі надсилання не довше ${countOf(NOTIFICATION_COPY_RETENTION_DAYS, DAYS)} після доставки (або після того, як доставити не вдалося); разом зі зверненням видаляються й вони, і нотатки працівників до нього.`,
      'Після цих строків сервер видаляє дані сам, щогодини.',
      `Резервні копії бази даних, зашифровані, зберігаються не довше ${countOf(BACKUP_RETENTION_DAYS, DAYS)}; якщо базу колись відновлять із копії, видалені на ваше прохання дані видаляються знову, перш ніж сайт запрацює.`,
      `Лічені відвідування (номер сеансу, джерело, канал, кампанія) — ${countOf(VISIT_SESSION_RETENTION_MONTHS, MONTHS)}, потім сервер їх видаляє.`,
    ],
  },
  {
    heading: 'Ваші права',
    paragraphs: [
      'Відповідно до Закону України «Про захист персональних даних» ви можете дізнатися, які ваші дані ми зберігаємо, виправити їх, відкликати згоду на обробку або попросити видалити їх. Напишіть нам на ' +
        `${BRAND.email} — відповімо протягом ${countOf(DATA_REQUEST_ANSWER_DAYS, DAYS)}. На прохання видалити дані ми видаляємо все, що про вас зберігає сайт, і повідомляємо про це CRM агенції; листи й повідомлення, які вже отримали працівники, вони видаляють самі. Якщо вважаєте, що ваші права порушено, ви можете звернутися до Уповноваженого Верховної Ради України з прав людини.`,
    ],
  },
];

/** `/privacy`: how the agency handles the personal data its forms collect. */
export function PrivacyPage() {
  usePageMeta(PRIVACY_PAGE_META);
  return (
    <article className={styles.policy} aria-labelledby="privacy-title">
      <h1 id="privacy-title" className={styles.title}>
        Політика конфіденційності
      </h1>
      <p className={styles.lead}>
        {typeset('Коротко і без дрібного шрифту: що відбувається з даними, які ви надсилаєте через форми на цьому сайті.')}
      </p>
      {POLICY.map((section) => (
        <section key={section.heading} className={styles.section}>
          <h2 className={styles.heading}>{section.heading}</h2>
          {section.paragraphs?.map((paragraph) => (
            <p key={paragraph}>{typeset(paragraph)}</p>
          ))}
          {section.items && (
            <ul className={styles.list}>
              {section.items.map((item) => (
                <li key={item}>{typeset(item)}</li>
              ))}
            </ul>
          )}
        </section>
      ))}
      <p className={styles.back}>
        <Link to="/">← На головну</Link>
      </p>
    </article>
  );
}
