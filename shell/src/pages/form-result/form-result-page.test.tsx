import { render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from '@agency/shared/router';
import { BRAND, FORM_RESULT_ROUTE, TOAST_MESSAGES } from '@agency/shared';
import { PageRenderContext, type PageRenderCollector } from '../../frame/page/page-render-context';
import { FormResultPage } from './FormResultPage';

function renderAt(path: string) {
  const collector: PageRenderCollector = { serverSlots: {}, slots: [], status: 200 };
  render(
    <PageRenderContext.Provider value={collector}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path={FORM_RESULT_ROUTE} element={<FormResultPage />} />
        </Routes>
      </MemoryRouter>
    </PageRenderContext.Provider>,
  );
  return collector;
}

describe('FormResultPage', () => {
  it('says a contact message was sent, in the toast’s words, and leads home; search engines keep out', () => {
    const collector = renderAt('/forms/contact/sent');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(TOAST_MESSAGES.contactSuccess);
    expect(screen.getByRole('link', { name: 'На головну' })).toHaveAttribute('href', '/');
    expect(collector.status).toBe(200);
    expect(collector.meta).toMatchObject({ path: '/forms/contact/sent', noindex: true });
  });

  it('says an application was not sent, how to go on, and leads back to the vacancies’ form', () => {
    renderAt('/forms/job-application/not-sent');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(TOAST_MESSAGES.applicationError);
    expect(document.body.textContent).toContain(BRAND.email);
    expect(screen.getByRole('link', { name: 'Повернутися до форми' })).toHaveAttribute('href', '/#vacancies');
  });

  it.each(['/forms/newsletter/sent', '/forms/contact/maybe'])('is the not-found page for %s', (path) => {
    const collector = renderAt(path);
    expect(collector.status).toBe(404);
    expect(screen.queryByText(TOAST_MESSAGES.contactSuccess)).not.toBeInTheDocument();
  });
});
