import { render, screen } from '@testing-library/react';
import { MemoryRouter } from '@agency/shared/router';
import { BACKUP_RETENTION_DAYS, BRAND, countOf, DATA_REQUEST_ANSWER_DAYS, DAYS, DEVICE_CLASS_LABELS, FOLLOW_UP_LIMITS, LEAD_RETENTION, MONTHS, NOTIFICATION_COPY_RETENTION_DAYS, PREVIEW_COOKIE, PRIVACY_PAGE_META, RELEASE_BUCKET_COOKIE, RELEASE_BUCKET_MAX_AGE_DAYS, TELEMETRY_CLIENT_RETENTION_DAYS, VISIT_SESSION_RETENTION_MONTHS, VISITOR_COUNTING } from '@agency/shared';
import { PageRenderContext, type PageRenderCollector } from '../../frame/page/page-render-context';
import { PrivacyPage } from './PrivacyPage';

function renderPage(collector: PageRenderCollector | null = null) {
  return render(
    <PageRenderContext.Provider value={collector}>
      <MemoryRouter initialEntries={['/privacy']}>
        <PrivacyPage />
      </MemoryRouter>
    </PageRenderContext.Provider>,
  );
}

describe('PrivacyPage', () => {
  it('says who handles the data, what each form collects, why, for how long, and how to use one’s rights', () => {
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Політика конфіденційності' })).toBeInTheDocument();
    const headings = screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent);
    expect(headings).toEqual(['Хто обробляє ваші дані', 'Які дані ми отримуємо', 'Файли cookie', 'Навіщо', 'Хто їх бачить', 'Як довго зберігаємо', 'Ваші права']);
    const text = document.body.textContent ?? '';
    expect(text).toContain(BRAND.fullName);
    expect(text).toContain(BRAND.email);
    expect(text).toMatch(/Закону України «Про захист персональних даних»/);
    expect(text).toMatch(/заявки на вакансію/i);
    expect(text).toMatch(/форми зворотного звʼязку/i);
    // What the API stores beside each submission (user_agent, referrer, created_at) is named too.
    expect(text).toMatch(/адресу сторінки.*браузер/);
    // Where a visit came from: kept by the browser for the session only, and counted visits' retention.
    expect(text).toMatch(/utm_source.*gclid.*fbclid.*sessionStorage.*без файлів cookie/);
    // typeset() binds short words and dashes with no-break spaces.
    expect(text).toMatch(new RegExp(`Лічені відвідування \\(номер сеансу, джерело, канал, кампанія\\)\\s—\\s${VISIT_SESSION_RETENTION_MONTHS}\\sмісяців`));
    // The one cookie every visitor may get (while a new release is tried on a share of them), and the preview's.
    expect(text).toMatch(new RegExp(`${RELEASE_BUCKET_COOKIE}\\s—\\sсуто службовий.*${RELEASE_BUCKET_MAX_AGE_DAYS}\\sднів`));
    expect(text).toContain(PREVIEW_COOKIE);
    // While a release is tried, visitors are told apart by a keyed fingerprint of the address, kept days.
    expect(text).toMatch(new RegExp(`не\\sIP-адресу,\\sа\\sїї\\sвідбиток,\\sобчислений\\sіз\\sсекретним\\sключем.*через\\s${TELEMETRY_CLIENT_RETENTION_DAYS}\\sд`));
    expect(screen.getByRole('link', { name: '← На головну' })).toHaveAttribute('href', '/');
  });

  it('states each retention period the server applies, from the same constants the purge reads', () => {
    renderPage();
    const items = screen.getAllByRole('listitem').map((item) => (item.textContent ?? '').replace(/\s/g, ' '));
    const said = (start: string) => items.find((item) => item.startsWith(start)) ?? '';
    expect(said('Звернення через форму зворотного звʼязку')).toContain(`${countOf(LEAD_RETENTION.contactMonths, MONTHS)} після останньої дії`);
    expect(said('Звернення через форму зворотного звʼязку')).toMatch(/уклали договір, зберігаємо, доки ви не попросите його видалити/);
    expect(said('Заявки на вакансії')).toContain(`${countOf(LEAD_RETENTION.applicationMonths, MONTHS)} після останньої дії`);
    expect(said('Повідомлення, які ми визнали спамом')).toContain(countOf(LEAD_RETENTION.spamDays, DAYS));
    expect(said('Копії звернень і заявок')).toContain(`не довше ${countOf(NOTIFICATION_COPY_RETENTION_DAYS, DAYS)} після доставки`);
    expect(said('Резервні копії бази даних')).toContain(`не довше ${countOf(BACKUP_RETENTION_DAYS, DAYS)}`);
    expect((document.body.textContent ?? '').replace(/\s/g, ' ')).toContain(`відповімо протягом ${countOf(DATA_REQUEST_ANSWER_DAYS, DAYS)}`);
  });

  it('says the site e-mails one confirmation, and that leads of the same e-mail or phone are seen together, for the window the API joins them in', () => {
    renderPage();
    const text = (document.body.textContent ?? '').replace(/\s/g, ' ');
    expect(text).toContain('один лист-підтвердження з її номером');
    expect(text).toContain(`з тією ж поштою чи телефоном протягом ${countOf(FOLLOW_UP_LIMITS.duplicateWindowDays, DAYS)}`);
  });

  it('says what the site counts of visits without cookies, how visitors are told apart for a day, and who is not counted', () => {
    renderPage();
    const items = screen.getAllByRole('listitem').map((item) => (item.textContent ?? '').replace(/\s/g, ' '));
    const counting = items.find((item) => item.startsWith('Відвідуваність сайту')) ?? '';
    expect(counting).toContain('без файлів cookie і нічого не записуючи на ваш пристрій');
    for (const label of Object.values(DEVICE_CLASS_LABELS)) expect(counting).toContain(label.toLowerCase());
    expect(counting).toContain(`який діє ${countOf(VISITOR_COUNTING.saltDays, DAYS)} і потім видаляється разом з усіма відбитками`);
    expect(counting).toMatch(/Роботів.*Do Not Track.*Global Privacy Control сайт не лічить/);
    expect(items.find((item) => item.startsWith('Відбитки відвідувачів'))).toContain(countOf(VISITOR_COUNTING.aggregateMonths, MONTHS));
  });

  it('gives the server its title and a 200, and the browser tab its title', () => {
    const collector: PageRenderCollector = { serverSlots: {}, slots: [], status: 0 };
    renderPage(collector);
    expect(collector.meta).toBe(PRIVACY_PAGE_META);
    expect(collector.status).toBe(200);
    expect(document.title).toBe(PRIVACY_PAGE_META.title);
  });
});
