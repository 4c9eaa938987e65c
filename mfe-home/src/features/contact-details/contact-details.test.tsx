import { render, screen } from '@testing-library/react';
import { BRAND } from '@agency/shared';
import ContactDetails from './ContactDetails';

describe('ContactDetails', () => {
  it('shows the address and links to call and write', () => {
    render(<ContactDetails />);
    expect(screen.getByText(BRAND.address)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: BRAND.phone })).toHaveAttribute('href', BRAND.phoneHref);
    expect(screen.getByRole('link', { name: BRAND.email })).toHaveAttribute('href', `mailto:${BRAND.email}`);
  });

  it('shows the working hours: Monday to Friday 09:00–18:00, weekends off', () => {
    render(<ContactDetails />);
    expect(screen.getByRole('heading', { level: 3, name: 'Графік роботи' })).toBeInTheDocument();
    expect(screen.getByText('Понеділок – пʼятниця').nextElementSibling).toHaveTextContent('09:00–18:00');
    expect(screen.getByText('Субота – неділя').nextElementSibling).toHaveTextContent('вихідні');
  });
});
