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
    expect(button).toHaveFocus();
  });

  it('turns into a visible close control while open', async () => {
    const user = userEvent.setup();
    renderHeader();
    const button = screen.getByRole('button', { name: 'Меню' });
    await user.click(button);
    expect(button).toHaveAccessibleName('Закрити');
    await user.click(button);
    expect(button).toHaveAccessibleName('Меню');
    expect(button).toHaveAttribute('aria-expanded', 'false');
  });

  it('dims the page under the open menu, and a click there closes it', async () => {
    const user = userEvent.setup();
    renderHeader();
    expect(screen.queryByTestId('menu-backdrop')).not.toBeInTheDocument();
    const button = screen.getByRole('button', { name: 'Меню' });
    await user.click(button);
    await user.click(screen.getByTestId('menu-backdrop'));
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByTestId('menu-backdrop')).not.toBeInTheDocument();
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
