import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from '@agency/shared/router';
import { VACANCIES } from '@agency/shared';
import Vacancies from './Vacancies';

function renderVacancies() {
  return render(
    <MemoryRouter>
      <Vacancies />
    </MemoryRouter>,
  );
}

describe('Vacancies', () => {
  it('shows the three vacancies of the spec with their salary ranges', () => {
    renderVacancies();
    const cards = within(screen.getByRole('list')).getAllByRole('listitem');
    expect(cards).toHaveLength(3);

    const expected = [
      ['Менеджер служби підтримки клієнтів', 'Зарплата: 20 000 – 30 000 ₴'],
      ['Адміністратор соціальних мереж', 'Зарплата: 18 000 – 28 000 ₴'],
      ['Менеджер з продажу та роботи з клієнтами', 'Зарплата: 22 000 – 35 000 ₴'],
    ];
    cards.forEach((card, index) => {
      const [title, salary] = expected[index]!;
      expect(within(card).getByRole('heading', { level: 3 })).toHaveTextContent(title!);
      expect(within(card).getByText(/^Зарплата:/).parentElement).toHaveTextContent(salary!);
      expect(card.querySelectorAll('p')[1]?.textContent?.length).toBeGreaterThan(40);
    });
  });

  it('offers "Відгукнутися" on each card, leading to the application form with that vacancy named', () => {
    renderVacancies();
    const cards = within(screen.getByRole('list')).getAllByRole('listitem');
    cards.forEach((card, index) => {
      const vacancy = VACANCIES[index]!;
      const apply = within(card).getByRole('link', { name: `Відгукнутися: ${vacancy.title}` });
      expect(apply).toHaveAttribute('href', `/?position=${vacancy.id}#job-application`);
    });
  });
});
