import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AxiosError, AxiosHeaders, type AxiosResponse } from 'axios';
import { ToastContainer, toast } from 'react-toastify';
import { PRIVACY_PATH, TOAST_CONTAINER, TOAST_DURATION_MS, TOAST_MESSAGES, VACANCIES, VACANCY_TITLES, applyForVacancyPath } from '@agency/shared';
import { Link, MemoryRouter } from '@agency/shared/router';
import { fetchFormChallenge, submitJobApplication } from '@agency/shared/api-client';
import JobApplicationForm from './JobApplicationForm';

jest.mock('@agency/shared/api-client');
// The proof of work is solved by altcha-lib in the browser; here, its answer stands in.
jest.mock('../../shared/form/solve-proof', () => ({ solveProof: async () => 'solved-proof' }));
const challenge = jest.mocked(fetchFormChallenge);
/** What the form sends beside its fields: the trap left empty, the token and proof its first use fetched. */
const GUARD = { honeypot: '', formToken: 'job-application.lz0abc.AAAAAAAAAAAAAAAA.BBBBBBBBBBBBBBBBBBBBBB', proof: 'solved-proof' };
beforeEach(() => {
  challenge.mockResolvedValue({ token: GUARD.formToken, challenge: {} as never });
});
const submit = jest.mocked(submitJobApplication);
// Each submission's idempotency key: 128 random bits in hex.
const A_KEY = expect.stringMatching(/^[0-9a-f]{32}$/);

const POSITION = VACANCY_TITLES[1] as string;

function renderForm(initialEntry = '/') {
  const user = userEvent.setup({ delay: null });
  render(
    <MemoryRouter initialEntries={[initialEntry]}>
      <JobApplicationForm />
      <ToastContainer {...TOAST_CONTAINER} />
      {/* What the home's vacancy cards render: links that name a vacancy in the address. */}
      {VACANCIES.map((vacancy) => (
        <Link key={vacancy.id} to={applyForVacancyPath(vacancy)}>{`Обрати: ${vacancy.title}`}</Link>
      ))}
    </MemoryRouter>,
  );
  return user;
}


const field = (label: RegExp) => screen.getByLabelText(label);

async function fillTextFields(user: ReturnType<typeof userEvent.setup>) {
  await user.type(field(/^Імʼя та прізвище/), 'Олена Коваль');
  await user.type(field(/^Електронна пошта/), 'olena@example.com');
  await user.type(field(/^Телефон/), '+380 67 123 45 67');
  await user.type(field(/^Місто/), 'Львів');
}

async function choosePosition(user: ReturnType<typeof userEvent.setup>, title: string) {
  await user.click(field(/^Вакансія/));
  await user.click(await screen.findByRole('option', { name: title }));
}

const submitButton = () => screen.getByRole('button', { name: 'Надіслати заявку' });

afterEach(() => {
  act(() => toast.dismiss());
  jest.restoreAllMocks();
  submit.mockReset();
});

describe('JobApplicationForm', () => {
  it('chooses the vacancy an address names, as when the form loads after "Відгукнутися"', async () => {
    renderForm(applyForVacancyPath(VACANCIES[2]!));
    expect(screen.getByRole('form')).toHaveAttribute('id', 'job-application');
    await waitFor(() => expect(screen.getByText(VACANCIES[2]!.title, { selector: '[class*="singleValue"]' })).toBeInTheDocument());
  });

  it('switches to another vacancy when its link is followed, keeping what the visitor typed', async () => {
    const user = renderForm();
    await fillTextFields(user);
    await user.click(screen.getByRole('link', { name: `Обрати: ${VACANCIES[1]!.title}` }));
    expect(await screen.findByText(VACANCIES[1]!.title, { selector: '[class*="singleValue"]' })).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: `Обрати: ${VACANCIES[0]!.title}` }));
    expect(await screen.findByText(VACANCIES[0]!.title, { selector: '[class*="singleValue"]' })).toBeInTheDocument();
    expect(field(/^Імʼя та прізвище/)).toHaveValue('Олена Коваль');
    expect(field(/^Місто/)).toHaveValue('Львів');

    submit.mockResolvedValue({ id: 7 });
    await user.click(submitButton());
    await waitFor(() => expect(submit).toHaveBeenCalled());
    expect(submit.mock.calls[0]![0]).toEqual(expect.objectContaining({ name: 'Олена Коваль', position: VACANCIES[0]!.title }));
  });

  it('says under the submit button how the personal data is used, linking to the privacy policy', () => {
    renderForm();
    expect(screen.getByText(/Надсилаючи форму, ви погоджуєтеся з обробкою персональних даних/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Політики конфіденційності' })).toHaveAttribute('href', PRIVACY_PATH);
  });

  it('labels every field, marks the required ones and offers the three vacancy titles', async () => {
    const user = renderForm();
    expect(screen.getByRole('heading', { level: 3, name: 'Відгукнутися на вакансію' })).toBeInTheDocument();
    for (const label of [/^Імʼя та прізвище/, /^Електронна пошта/, /^Телефон/, /^Місто/, /^Вакансія/]) {
      expect(field(label)).toBeRequired();
    }
    expect(field(/^Про себе та досвід/)).not.toBeRequired();
    expect(field(/^Електронна пошта/)).toHaveAttribute('type', 'email');
    expect(field(/^Телефон/)).toHaveAttribute('type', 'tel');

    await user.click(field(/^Вакансія/));
    const options = await screen.findAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual([...VACANCY_TITLES]);
  });

  it('does not send an application without a position', async () => {
    const user = renderForm();
    await fillTextFields(user);
    await user.click(submitButton());
    expect(submit).not.toHaveBeenCalled();
  });

  it('does not send while a required text field is empty or the email is malformed', async () => {
    const user = renderForm();
    await fillTextFields(user);
    await choosePosition(user, POSITION);
    await user.clear(field(/^Місто/));
    await user.click(submitButton());
    expect(submit).not.toHaveBeenCalled();

    await user.type(field(/^Місто/), 'Львів');
    await user.clear(field(/^Електронна пошта/));
    await user.type(field(/^Електронна пошта/), 'olena.example.com');
    await user.click(submitButton());
    expect(submit).not.toHaveBeenCalled();
  });

  it('sends exactly the spec fields, resets every field and shows the success toast for 4 s', async () => {
    submit.mockResolvedValue({ id: 7 });
    const success = jest.spyOn(toast, 'success');
    const user = renderForm();
    await fillTextFields(user);
    await choosePosition(user, POSITION);
    await user.click(submitButton());

    expect(submit).toHaveBeenCalledTimes(1);
    expect(submit).toHaveBeenCalledWith({
      name: 'Олена Коваль',
      email: 'olena@example.com',
      phone: '+380 67 123 45 67',
      city: 'Львів',
      position: POSITION,
      resume_text: '',
    }, GUARD, A_KEY);
    expect(await screen.findByText(TOAST_MESSAGES.applicationSuccess)).toBeInTheDocument();
    expect(success).toHaveBeenCalledWith(
      TOAST_MESSAGES.applicationSuccess,
      expect.objectContaining({ autoClose: TOAST_DURATION_MS }),
    );
    for (const label of [/^Імʼя та прізвище/, /^Електронна пошта/, /^Телефон/, /^Місто/, /^Про себе та досвід/]) {
      expect(field(label)).toHaveValue('');
    }
    expect(screen.queryByText(POSITION)).not.toBeInTheDocument();
    expect(screen.getByText('Оберіть…')).toBeInTheDocument();
  });

  it('sends the optional resume text when it is filled in', async () => {
    submit.mockResolvedValue({ id: 8 });
    const user = renderForm();
    await fillTextFields(user);
    await choosePosition(user, POSITION);
    await user.type(field(/^Про себе та досвід/), 'Три роки веду сторінки кавʼярень.');
    await user.click(submitButton());
    expect(submit).toHaveBeenCalledWith(expect.objectContaining({ resume_text: 'Три роки веду сторінки кавʼярень.' }), GUARD, A_KEY);
  });

  it('keeps every value and shows the error toast when sending fails', async () => {
    submit.mockRejectedValue(new Error('Network Error'));
    const user = renderForm();
    await fillTextFields(user);
    await choosePosition(user, POSITION);
    await user.type(field(/^Про себе та досвід/), 'Досвід у підтримці.');
    await user.click(submitButton());

    expect(await screen.findByText(TOAST_MESSAGES.applicationError)).toBeInTheDocument();
    expect(field(/^Імʼя та прізвище/)).toHaveValue('Олена Коваль');
    expect(field(/^Електронна пошта/)).toHaveValue('olena@example.com');
    expect(field(/^Телефон/)).toHaveValue('+380 67 123 45 67');
    expect(field(/^Місто/)).toHaveValue('Львів');
    expect(field(/^Про себе та досвід/)).toHaveValue('Досвід у підтримці.');
    expect(screen.getByText(POSITION)).toBeInTheDocument();
    expect(submitButton()).toBeEnabled();
  });

  it('shows the server’s field messages next to their fields after a 400 answer', async () => {
    const response = {
      status: 400,
      statusText: 'Bad Request',
      headers: {},
      config: { headers: new AxiosHeaders() },
      data: {
        error: {
          code: 'VALIDATION_ERROR',
          message: 'Перевірте правильність заповнення полів',
          fields: { phone: 'Некоректний номер телефону', unknown_field: 'Не показується' },
        },
      },
    } satisfies AxiosResponse;
    submit.mockRejectedValue(new AxiosError('Bad Request', 'ERR_BAD_REQUEST', undefined, undefined, response));
    const user = renderForm();
    await fillTextFields(user);
    await choosePosition(user, POSITION);
    await user.click(submitButton());

    const phone = field(/^Телефон/);
    expect(await screen.findByText('Некоректний номер телефону')).toBeInTheDocument();
    expect(phone).toHaveAttribute('aria-invalid', 'true');
    expect(phone).toHaveAccessibleDescription('Некоректний номер телефону');
    expect(screen.queryByText('Не показується')).not.toBeInTheDocument();
    expect(screen.getByText(TOAST_MESSAGES.applicationError)).toBeInTheDocument();

    // Correcting the field takes its message away.
    await user.type(phone, '8');
    expect(screen.queryByText('Некоректний номер телефону')).not.toBeInTheDocument();
    expect(phone).not.toHaveAttribute('aria-invalid');
  });

  it('disables the submit button while the request is in flight and sends only once', async () => {
    let finish: (value: { id: number }) => void = () => undefined;
    submit.mockImplementation(() => new Promise((resolve) => (finish = resolve)));
    const user = renderForm();
    await fillTextFields(user);
    await choosePosition(user, POSITION);
    await user.click(submitButton());

    const busy = screen.getByRole('button', { name: 'Надсилаємо…' });
    expect(busy).toBeDisabled();
    await user.click(busy);
    expect(submit).toHaveBeenCalledTimes(1);

    await act(async () => finish({ id: 1 }));
    await waitFor(() => expect(submitButton()).toBeEnabled());
  });

  it('lets the position be chosen with the keyboard alone', async () => {
    submit.mockResolvedValue({ id: 9 });
    const user = renderForm();
    await fillTextFields(user);
    // From the city field: Tab into the dropdown, open it, move to the second title, choose it.
    await user.tab();
    expect(field(/^Вакансія/)).toHaveFocus();
    await user.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    expect(screen.getByText(POSITION)).toBeInTheDocument();
    expect(field(/^Вакансія/)).toHaveFocus();
    await user.tab();
    await user.tab();
    expect(submitButton()).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(submit).toHaveBeenCalledWith(expect.objectContaining({ position: POSITION }), GUARD, A_KEY);
  });
});
