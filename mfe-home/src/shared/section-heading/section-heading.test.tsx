import { render, screen } from '@testing-library/react';
import { SectionHeading } from './SectionHeading';

describe('SectionHeading', () => {
  it('typesets a text title and lead: one apostrophe, «» quotes, one-letter words kept with the next', () => {
    render(<SectionHeading eyebrow="Про нас" title={'Шість причин обрати "Хвилю"'} lead="Працюємо у Львові з 2019 року — і це п'ять років." />);
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Шість причин обрати «Хвилю»');
    expect(screen.getByText(/Працюємо/).textContent).toBe('Працюємо у\u00a0Львові з\u00a02019 року\u00a0— і\u00a0це пʼять років.');
  });

  it('leaves a title given as markup to its author', () => {
    render(<SectionHeading eyebrow="Команда" title={<em>"Як є"</em>} />);
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('"Як є"');
  });
});
