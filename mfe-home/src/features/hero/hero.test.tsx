import { render, screen, within } from '@testing-library/react';
import Hero from './Hero';

describe('Hero', () => {
  it('is the page headline: the only h1', () => {
    render(<Hero />);
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Маркетинг, що приводить клієнтів');
  });

  it('"Почати проєкт" leads to the contact form and "Наші кейси" to the blog listing of case studies', () => {
    render(<Hero />);
    expect(screen.getByRole('link', { name: 'Почати проєкт' })).toHaveAttribute('href', '#contact');
    expect(screen.getByRole('link', { name: 'Наші кейси' })).toHaveAttribute('href', '/blog?category=%D0%9A%D0%B5%D0%B9%D1%81%D0%B8');
  });

  it('shows the three figures of the spec with their labels', () => {
    const { container } = render(<Hero />);
    const stats = container.querySelector('dl');
    if (!stats) throw new Error('No statistics list');
    const pairs = within(stats)
      .getAllByRole('definition')
      .map((value) => `${value.textContent} ${value.previousElementSibling?.textContent}`);
    expect(pairs).toEqual(['200+ реалізованих проєктів', '98% задоволених клієнтів', '5+ років на ринку']);
  });
});
