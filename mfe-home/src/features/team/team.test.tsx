import { render, screen, within } from '@testing-library/react';
import Team from './Team';

const PEOPLE = [
  { name: 'Олена Коваль', position: 'Засновниця та стратегиня' },
  { name: 'Андрій Мельник', position: 'Керівник відділу реклами' },
  { name: 'Марта Гнатюк', position: 'Креативна директорка' },
];

describe('Team', () => {
  it('introduces three people with name, position, photo and quote', () => {
    render(<Team />);
    const cards = within(screen.getByRole('list')).getAllByRole('listitem');
    expect(cards).toHaveLength(3);

    cards.forEach((card, index) => {
      const person = PEOPLE[index]!;
      expect(within(card).getByRole('heading', { level: 3 })).toHaveTextContent(person.name);
      expect(within(card).getByText(person.position)).toBeInTheDocument();
      const photo = within(card).getByRole('img');
      expect(photo).toHaveAccessibleName(expect.stringContaining(person.name));
      expect(photo).toHaveAttribute('width', '160');
      expect(photo).toHaveAttribute('height', '160');
      expect(photo.getAttribute('src')).toBeTruthy();
      expect(card.querySelector('blockquote')?.textContent?.length).toBeGreaterThan(20);
    });
  });
});
