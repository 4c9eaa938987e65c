import { render, screen } from '@testing-library/react';
import { MemoryRouter } from '@agency/shared/router';
import { SiteHeader } from './SiteHeader';

// jsdom has no popovers: what the menu does when opened, closed and dismissed is tested in
// Chromium (the navigation, home and composition end-to-end suites).
describe('SiteHeader menu button', () => {
  it('opens the section navigation as a native popover, with no script needed', () => {
    render(
      <MemoryRouter initialEntries={['/']}>
        <SiteHeader />
      </MemoryRouter>,
    );
    const nav = screen.getByRole('navigation', { name: 'Розділи сайту' });
    const button = screen.getByRole('button', { name: /Меню/ });
    expect(nav).toHaveAttribute('popover', 'auto');
    expect(button).toHaveAttribute('popovertarget', nav.id);
    expect(button).toHaveAttribute('aria-controls', nav.id);
    expect(button).toHaveTextContent(/Меню.*Закрити/);
  });
});
