import { STAFF_LIMITS } from '@agency/shared';

/** The staff API's answers to people, in Ukrainian; one place, so the console and the tests agree. */
export const STAFF_MESSAGES = {
  signInRequired: 'Увійдіть, щоб продовжити',
  forbidden: 'Ваша роль не дозволяє цю дію',
  csrf: 'Запит відхилено: оновіть сторінку й спробуйте ще раз',
  invitationInvalid: 'Запрошення недійсне: його вже використано, термін дії минув або посилання неповне',
  challengeExpired: 'Час на підтвердження минув. Спробуйте ще раз',
  passkeyRefused: 'Не вдалося перевірити ключ доступу',
  passkeyUnknown: 'Цей ключ доступу не повʼязаний з жодним обліковим записом',
  codeRefused: 'Невірна адреса електронної пошти або код',
  totpRefused: 'Невірний код. Перевірте час на пристрої й спробуйте ще раз',
  lockedOut: `Забагато невдалих спроб. Коди не прийматимуться ${STAFF_LIMITS.lockoutMinutes} хв; увійти з ключем доступу можна й зараз`,
  memberNotFound: 'Такого члена команди немає',
  memberExists: 'Член команди з цією адресою вже є',
  lastAdmin: 'Не можна прибрати чи понизити останнього адміністратора',
  sessionNotFound: 'Такого сеансу немає',
  leadNotFound: 'Заявку не знайдено',
  leadChanged: 'Заявку щойно змінив хтось інший. Перегляньте зміни й збережіть ще раз',
  assigneeUnknown: 'Такого члена команди немає',
  nothingToChange: 'Немає змін для збереження',
  subjectInvalid: 'Вкажіть адресу електронної пошти або номер телефону (щонайменше 9 цифр)',
  erasureNotConfirmed: 'Для підтвердження введіть ту саму адресу чи номер ще раз',
} as const;
