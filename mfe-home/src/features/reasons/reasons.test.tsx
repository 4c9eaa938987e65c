import { render, screen, within } from '@testing-library/react';
import Reasons from './Reasons';

describe('Reasons', () => {
  it('lists six reasons numbered 01 to 06, in order', () => {
    render(<Reasons />);
    const items = within(screen.getByRole('list')).getAllByRole('listitem');
    expect(items).toHaveLength(6);
    items.forEach((item, index) => {
      expect(item).toHaveTextContent(new RegExp(`^0${index + 1}`));
    });
  });

  it('gives every reason a title and a sentence', () => {
    render(<Reasons />);
    const items = within(screen.getByRole('list')).getAllByRole('listitem');
    for (const item of items) {
      expect(within(item).getByRole('heading', { level: 3 }).textContent).not.toBe('');
      expect(item.querySelector('p')?.textContent).toMatch(/^[А-ЯІЇЄҐA-Z].{20,}\.$/u);
    }
  });
});
