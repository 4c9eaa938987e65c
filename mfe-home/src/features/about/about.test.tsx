import { render, screen } from '@testing-library/react';
import About from './About';

describe('About', () => {
  it('introduces the agency under an h2', () => {
    render(<About />);
    expect(screen.getByRole('heading', { level: 2 })).toHaveTextContent('«Хвиля»');
  });

  it('shows 50+ specialists and 24/7 support', () => {
    render(<About />);
    const pairs = screen
      .getAllByRole('definition')
      .map((value) => `${value.textContent} ${value.previousElementSibling?.textContent}`);
    expect(pairs).toEqual(['50+ фахівців у команді', '24/7 підтримка клієнтів']);
  });
});
