import { render, screen } from '@testing-library/react';
import { MemoryRouter } from '@agency/shared/router';
import { SiteHeader } from './SiteHeader';

function renderAt(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <SiteHeader />
    </MemoryRouter>,
  );
}

describe('SiteHeader', () => {
  it('links the brand to the home page and offers section navigation', () => {
    renderAt('/');
    expect(screen.getByRole('link', { name: /Хвиля — на головну/ })).toHaveAttribute('href', '/');
    expect(screen.getByRole('link', { name: 'Послуги' })).toHaveAttribute('href', '/#services');
    expect(screen.queryByRole('link', { name: /← На головну/ })).not.toBeInTheDocument();
  });

  it('adds a way back home on a blog post page', () => {
    renderAt('/blog/3');
    expect(screen.getByRole('link', { name: /← На головну/ })).toHaveAttribute('href', '/');
  });
});
