import { BRAND, type FollowUpSettings } from '@agency/shared';

/** The visitor's reply until admins change it. */
export const DEFAULT_REPLIES: FollowUpSettings['replies'] = {
  contact: {
    subject: `Ми отримали ваше звернення №{number} — «${BRAND.name}»`,
    text: `Вітаємо, {name}!

Дякуємо, що написали агенції «${BRAND.name}». Ваше звернення отримано, його номер №{number}.

Ми відповімо {answer_by}. Працюємо з понеділка по пʼятницю, ${BRAND.weekdayHours.opens}–${BRAND.weekdayHours.closes} за київським часом.

Ви надіслали:
{message}

Якщо захочете щось додати, просто дайте відповідь на цей лист.

З повагою,
команда «${BRAND.name}»
${BRAND.phone}`,
  },
  applications: {
    subject: `Ваш відгук на вакансію «{position}» отримано (№{number})`,
    text: `Вітаємо, {name}!

Дякуємо за відгук на вакансію «{position}» в агенції «${BRAND.name}». Його номер №{number}.

Ми уважно його прочитаємо і відповімо {answer_by}. Працюємо з понеділка по пʼятницю, ${BRAND.weekdayHours.opens}–${BRAND.weekdayHours.closes} за київським часом.

Ви надіслали:
{message}

З повагою,
команда «${BRAND.name}»`,
  },
};
