import { countOf, DAYS, STAFF_LOCALE, type BackupAlertName, type BackupReason, type BackupStatusView, type UkrainianForms } from '@agency/shared';
import { kyivDateTime } from '../../shared/ui/kyiv-time';

// Accusative: the forms after «тому», «за» and «раз на» (5 хвилин тому, старша за 2 години).
const SECONDS: UkrainianForms = { one: 'секунду', few: 'секунди', many: 'секунд' };
const MINUTES: UkrainianForms = { one: 'хвилину', few: 'хвилини', many: 'хвилин' };
const HOURS: UkrainianForms = { one: 'годину', few: 'години', many: 'годин' };
export const COPIES: UkrainianForms = { one: 'копія', few: 'копії', many: 'копій' };

/** A span in the largest whole unit that reads naturally: up to 47 hours in hours, then days. */
function spanParts(seconds: number): [number, UkrainianForms] {
  if (seconds < 60) return [Math.floor(seconds), SECONDS];
  if (seconds < 3_600) return [Math.floor(seconds / 60), MINUTES];
  if (seconds < 48 * 3_600) return [Math.floor(seconds / 3_600), HOURS];
  return [Math.floor(seconds / 86_400), DAYS];
}

/** «10 хвилин», «2 дні»: for «старша за …». */
export function spanText(seconds: number): string {
  const [count, forms] = spanParts(seconds);
  return countOf(count, forms);
}

/** «12 хвилин тому»; under a minute, «менше хвилини тому». */
export function agoText(seconds: number): string {
  return seconds < 60 ? 'менше хвилини тому' : `${spanText(seconds)} тому`;
}

/** «раз на годину», «раз на 5 хвилин». */
export function everyText(ms: number): string {
  const [count, forms] = spanParts(ms / 1000);
  return `раз на ${count === 1 ? forms.one : countOf(count, forms)}`;
}

const NUMBER = new Intl.NumberFormat(STAFF_LOCALE, { maximumFractionDigits: 1 });
const UNITS = ['Б', 'КіБ', 'МіБ', 'ГіБ', 'ТіБ'];

/** Bytes in binary units, as the console's upload limits are written: «1,5 МіБ». */
export function sizeText(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${NUMBER.format(value)} ${UNITS[unit]}`;
}

export const REASON_LABELS: Record<BackupReason, string> = {
  interval: 'за розкладом',
  shutdown: 'під час зупинки',
  manual: 'вручну',
};

export const KIND_LABELS: Record<BackupStatusView['kind'], string> = {
  'sqlite-snapshot': 'знімки бази SQLite',
  'postgres-base': 'базові копії PostgreSQL та архів журналу (WAL) між ними',
};

/** What an alert means, for the admin who reads it: the same conditions the ops webhook is told of. */
export function alertText(alert: BackupAlertName, status: BackupStatusView): string {
  const failure = status.failure ? `${status.failure.message} (${kyivDateTime(status.failure.at)})` : '';
  switch (alert) {
    case 'backup_stale':
      return status.newest
        ? `Остання резервна копія старша за ${spanText((2 * status.intervalMs) / 1000)}: нові копії не робляться.`
        : 'Жодної резервної копії ще немає.';
    case 'verify_stale':
      return status.newestVerified
        ? `Перевірка відновлення давно не проходила: остання перевірена копія старша за ${spanText((2 * status.verifyIntervalMs) / 1000)}.`
        : 'Перевірка відновлення ще не пройшла жодного разу: немає копії, з якої відновлення доведено.';
    case 'backup_failed':
      return `Резервна копія не вдалася: ${failure}`;
    case 'verify_failed':
      return `Перевірка відновлення не вдалася: ${failure}`;
  }
}
