import { render, screen, waitFor, within } from '@testing-library/react';
import type { Service } from '@agency/shared';
import { fetchServices } from '@agency/shared/api-client';
import Services from './Services';

jest.mock('@agency/shared/api-client');
const mockedFetchServices = jest.mocked(fetchServices);

const SMM: Service = {
  id: 1,
  title: 'SMM та просування',
  description: 'Ведемо соціальні мережі бренду.',
  icon_url: '/media/services/smm.svg',
  features: ['Стратегія та аудит сторінок', 'Контент-план на місяць'],
  price_from: 12500,
};
const BRANDING: Service = {
  id: 7,
  title: 'Брендинг і айдентика',
  description: 'Формулюємо, хто ви і чим відрізняєтеся.',
  icon_url: '/media/services/branding.svg',
  features: ['Платформа бренду'],
  price_from: null,
};

/** Resolves only when the test says so, to look at the loading state. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

function serviceCard(title: string): HTMLElement {
  const heading = screen.getByRole('heading', { level: 3, name: title });
  const card = heading.closest('article');
  if (!card) throw new Error(`No card around ${title}`);
  return card;
}

afterEach(() => {
  jest.restoreAllMocks();
  mockedFetchServices.mockReset();
});

describe('Services', () => {
  it('requests the services once, as soon as it mounts', () => {
    mockedFetchServices.mockReturnValue(new Promise(() => {}));
    render(<Services />);
    expect(mockedFetchServices).toHaveBeenCalledTimes(1);
    expect(mockedFetchServices).toHaveBeenCalledWith();
  });

  it('shows each service with its icon, title, description and features', async () => {
    mockedFetchServices.mockResolvedValue([SMM, BRANDING]);
    render(<Services />);

    const list = await screen.findByRole('list', { name: 'Список послуг' });
    expect(list.children).toHaveLength(2);

    const smm = serviceCard('SMM та просування');
    const icon = within(smm).getByRole('img', { name: 'Іконка послуги «SMM та просування»' });
    expect(icon).toHaveAttribute('src', '/media/services/smm.svg');
    expect(icon).toHaveAttribute('width', '56');
    expect(icon).toHaveAttribute('height', '56');
    expect(within(smm).getByText('Ведемо соціальні мережі бренду.')).toBeInTheDocument();
    const features = within(smm).getByRole('list', { name: 'Що входить у «SMM та просування»' });
    expect(within(features).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Стратегія та аудит сторінок',
      'Контент-план на місяць',
    ]);
  });

  it('shows "від N ₴" in the uk-UA number format only for a service with price_from', async () => {
    mockedFetchServices.mockResolvedValue([SMM, BRANDING]);
    render(<Services />);
    await screen.findByRole('list', { name: 'Список послуг' });

    // The default matcher collapses the no-break space uk-UA groups thousands with.
    expect(within(serviceCard('SMM та просування')).getByText('від 12 500 ₴')).toBeInTheDocument();
    const branding = serviceCard('Брендинг і айдентика');
    expect(within(branding).queryByText(/^від /)).not.toBeInTheDocument();
    expect(branding).not.toHaveTextContent('₴');
  });

  it('shows a service that has no price_from or no id, and leaves out (and logs) only a malformed one', async () => {
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
    const { price_from: _price, ...noPrice } = { ...SMM, id: 2, title: 'Контент-маркетинг' };
    const { id: _id, ...noId } = { ...SMM, title: 'Аналітика', price_from: 9000 };
    const malformed = { ...SMM, id: 9, title: 'Зламана', features: 'не список' };
    mockedFetchServices.mockResolvedValue([SMM, noPrice, malformed, noId] as Service[]);
    render(<Services />);

    const list = await screen.findByRole('list', { name: 'Список послуг' });
    expect(within(list).getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent)).toEqual([
      'SMM та просування',
      'Контент-маркетинг',
      'Аналітика',
    ]);
    expect(serviceCard('Контент-маркетинг')).not.toHaveTextContent('₴');
    expect(within(serviceCard('Аналітика')).getByText('від 9 000 ₴')).toBeInTheDocument();
    expect(consoleError).toHaveBeenCalledWith(expect.stringContaining('left out 1 malformed item(s)'), [malformed]);
  });

  it('keeps the space of the list with hidden placeholders while loading', async () => {
    const response = deferred<Service[]>();
    mockedFetchServices.mockReturnValue(response.promise);
    render(<Services />);

    expect(screen.getByTestId('services-placeholder')).toHaveAttribute('aria-hidden', 'true');
    expect(screen.queryByRole('list', { name: 'Список послуг' })).not.toBeInTheDocument();

    response.resolve([SMM]);
    expect(await screen.findByRole('heading', { level: 3, name: 'SMM та просування' })).toBeInTheDocument();
    expect(screen.queryByTestId('services-placeholder')).not.toBeInTheDocument();
  });

  it('logs a failed load and leaves the list empty, showing the visitor nothing about it', async () => {
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
    const failure = new Error('Network Error');
    mockedFetchServices.mockRejectedValue(failure);
    render(<Services />);

    const list = await screen.findByRole('list', { name: 'Список послуг' });
    expect(within(list).queryAllByRole('listitem')).toHaveLength(0);
    expect(screen.queryByTestId('services-placeholder')).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(screen.queryByText(/помилк|не вдалося/i)).not.toBeInTheDocument();
    await waitFor(() => expect(consoleError).toHaveBeenCalledWith(expect.any(String), failure));
  });
});
