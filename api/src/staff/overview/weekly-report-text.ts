import { changePercentText, countText, DASHBOARD_FIGURES, dayText, rateText, SITE_ANALYTICS_LIMITS, STAFF_PATHS, type Dashboard, type DashboardRow } from '@agency/shared';

/**
 * The weekly e-mail's subject and plain text, from the dashboard of the week: its figures beside
 * the week before's, and the top pages, sources and posts. Totals only: never a lead's name,
 * contacts or words. Written as the console («Огляд») writes the same figures.
 */

/** «, +12 %» how a figure moved since the week before; nothing when there was nothing to compare with. */
function changeText(current: number | null, previous: number | null): string {
  const change = changePercentText(current, previous);
  if (change === undefined) return '';
  return change === '0 %' ? ', без змін' : `, ${change}`;
}

function figureLines(dashboard: Dashboard): string[] {
  return DASHBOARD_FIGURES.map(({ key, label, text }) => {
    const current = dashboard.totals[key];
    const previous = dashboard.previous[key];
    return `${label}: ${text(current)} (попередній тиждень: ${text(previous)}${changeText(current, previous)})`;
  });
}

function tableLines(title: string, rows: readonly DashboardRow[], nameOf: (row: DashboardRow) => string): string[] {
  const top = rows.slice(0, SITE_ANALYTICS_LIMITS.weeklyRows);
  if (top.length === 0) return [title, 'За тиждень даних немає.'];
  return [
    title,
    ...top.map(
      (row, index) =>
        `${index + 1}. ${nameOf(row)}: відвідувачі ${countText(row.visitors)}, перегляди ${countText(row.pageViews)}, заявки ${countText(row.leads)}, конверсія ${rateText(row.conversionRate)}, клієнти ${countText(row.won)}`,
    ),
  ];
}

/** The console's «Огляд» showing this week. */
export function weekLink(siteUrl: string, from: string, to: string): string {
  const url = new URL(STAFF_PATHS.overview, siteUrl);
  url.search = new URLSearchParams({ period: 'range', from, to }).toString();
  return url.toString();
}

export function weeklyReportText(dashboard: Dashboard, siteUrl: string): { subject: string; text: string } {
  const week = `${dayText(dashboard.from)} – ${dayText(dashboard.to)}`;
  const text = [
    `Тиждень ${week} (з понеділка по неділю, за київським часом) порівняно з попереднім, ${dayText(dashboard.previousFrom)} – ${dayText(dashboard.previousTo)}.`,
    '',
    ...figureLines(dashboard),
    '',
    ...tableLines('Сторінки:', dashboard.pages, (row) => row.label),
    '',
    ...tableLines('Джерела:', dashboard.sources, (row) => row.label || '(без джерела)'),
    '',
    ...tableLines('Статті блогу:', dashboard.posts, (row) => (row.label === row.key ? row.key : `«${row.label}» (${row.key})`)),
    '',
    `Докладніше в консолі, «Огляд»: ${weekLink(siteUrl, dashboard.from, dashboard.to)}`,
    '',
    'Ви отримуєте цей лист, бо увімкнули щотижневий звіт на сторінці «Огляд»; вимкнути його можна там само.',
  ].join('\n');
  return { subject: `Щотижневий звіт сайту: ${week}`, text };
}
