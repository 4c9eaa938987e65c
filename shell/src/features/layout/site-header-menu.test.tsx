import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from '@agency/shared/router';
import { SiteHeader } from './SiteHeader';

function renderHeader() {
  return render(
    <MemoryRouter initialEntries={['/']}>
      <SiteHeader />
    </MemoryRouter>,
  );
}

describe('SiteHeader menu button', () => {
  it('opens and closes the section navigation it controls', async () => {
    const user = userEvent.setup();
    renderHeader();
    const button = screen.getByRole('button', { name: 'Меню' });
    const nav = screen.getByRole('navigation', { name: 'Розділи сайту' });
    expect(button).toHaveAttribute('aria-controls', nav.id);
    expect(button).toHaveAttribute('aria-expanded', 'false');

    await user.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');

    await user.keyboard('{Escape}');
    expect(button).toHaveAttribute('aria-expanded', 'false');
  });

  it('closes after a section is chosen', async () => {
    const user = userEvent.setup();
    renderHeader();
    const button = screen.getByRole('button', { name: 'Меню' });
    await user.click(button);
    await user.click(screen.getByRole('link', { name: 'Команда' }));
    expect(button).toHaveAttribute('aria-expanded', 'false');
  });
});
