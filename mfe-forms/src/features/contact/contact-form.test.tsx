import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { AxiosError, AxiosHeaders } from 'axios';
import { ToastContainer, toast } from 'react-toastify';
import { HONEYPOT_FIELD, PRIVACY_PATH, SERVICE_TYPES, TOAST_CONTAINER, TOAST_DURATION_MS, TOAST_MESSAGES } from '@agency/shared';
import { MemoryRouter } from '@agency/shared/router';
import { fetchFormChallenge, submitContactMessage } from '@agency/shared/api-client';
import ContactForm from './ContactForm';

jest.mock('@agency/shared/api-client');
// The proof of work is solved by altcha-lib in the browser; here, its answer stands in.
jest.mock('../../shared/form/solve-proof', () => ({ solveProof: async () => 'solved-proof' }));
const challenge = jest.mocked(fetchFormChallenge);
/** What the form sends beside its fields: the trap left empty, the token and proof its first use fetched. */
const GUARD = { honeypot: '', formToken: 'contact.lz0abc.AAAAAAAAAAAAAAAA.BBBBBBBBBBBBBBBBBBBBBB', proof: 'solved-proof' };
beforeEach(() => {
  challenge.mockResolvedValue({ token: GUARD.formToken, challenge: {} as never });
});
const submit = jest.mocked(submitContactMessage);
// Each submission's idempotency key: 128 random bits in hex.
const A_KEY = expect.stringMatching(/^[0-9a-f]{32}$/);

type User = ReturnType<typeof userEvent.setup>;

/** How axios rejects a request the server answered with `status`. */
function unavailable(status: number): AxiosError {
  const config = { headers: new AxiosHeaders() };
  return new AxiosError(`Request failed with status code ${status}`, 'ERR_BAD_RESPONSE', config, {}, {
    status,
    statusText: '',
    data: {},
    headers: {},
    config,
  });
}

function renderForm() {
  const user = userEvent.setup({ delay: null });
  render(
    <MemoryRouter>
      <ContactForm />
      <ToastContainer {...TOAST_CONTAINER} />
    </MemoryRouter>,
  );
  return user;
}

const field = (label: RegExp) => screen.getByLabelText(label);
const submitButton = () => screen.getByRole('button', { name: 'Надіслати повідомлення' });

async function fillRequired(user: User) {
  await user.type(field(/^Імʼя/), 'Андрій Шевчук');
  await user.type(field(/^Електронна пошта/), 'andrii@kava.lviv.ua');
  await user.type(field(/^Телефон/), '+380 50 765 43 21');
  await user.type(field(/^Повідомлення/), 'Потрібне ведення Instagram для двох кавʼярень.');
}

async function chooseServiceType(user: User, label: string) {
  await user.click(field(/^Послуга/));
  await user.click(await screen.findByRole('option', { name: label }));
}

afterEach(() => {
  act(() => toast.dismiss());
  jest.restoreAllMocks();
  submit.mockReset();
});

describe('ContactForm', () => {
  it('says under the submit button how the personal data is used, linking to the privacy policy', () => {
    renderForm();
    const form = screen.getByRole('form');
    const consent = screen.getByText(/Надсилаючи форму, ви погоджуєтеся з обробкою персональних даних/);
    expect(form).toContainElement(consent);
    expect(submitButton().compareDocumentPosition(consent) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Політики конфіденційності' })).toHaveAttribute('href', PRIVACY_PATH);
  });

  it('labels every field and requires name, email, phone and message only', () => {
    renderForm();
    expect(screen.getByRole('heading', { level: 3, name: 'Напишіть нам' })).toBeInTheDocument();
    for (const label of [/^Імʼя/, /^Електронна пошта/, /^Телефон/, /^Повідомлення/]) {
      expect(field(label)).toBeRequired();
    }
    expect(field(/^Компанія/)).not.toBeRequired();
    expect(field(/^Послуга/)).not.toBeRequired();
    expect(field(/^Електронна пошта/)).toHaveAttribute('type', 'email');
    expect(field(/^Телефон/)).toHaveAttribute('type', 'tel');
  });

  it('offers the four service types with their Ukrainian labels', async () => {
    const user = renderForm();
    await user.click(field(/^Послуга/));
    const options = await screen.findAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual([
      'SMM та просування',
      'Контент-маркетинг',
      'Лідогенерація',
      'Аналітика',
    ]);
  });

  it.each(SERVICE_TYPES.map((type) => [type.label, type.value]))('sends %s as "%s"', async (label, value) => {
    submit.mockResolvedValue({ id: 1 });
    const user = renderForm();
    await fillRequired(user);
    await chooseServiceType(user, label);
    await user.click(submitButton());
    expect(submit).toHaveBeenCalledWith(expect.objectContaining({ service_type: value }), GUARD, A_KEY);
  });

  it('does not send while the message is empty or the email is malformed', async () => {
    const user = renderForm();
    await fillRequired(user);
    await user.clear(field(/^Повідомлення/));
    await user.click(submitButton());
    expect(submit).not.toHaveBeenCalled();

    await user.type(field(/^Повідомлення/), 'Вітаю!');
    await user.clear(field(/^Електронна пошта/));
    await user.type(field(/^Електронна пошта/), 'andrii@');
    await user.click(submitButton());
    expect(submit).not.toHaveBeenCalled();
  });

  it('takes over what the visitor typed and chose in the server’s form before its script ran, and sends it', async () => {
    submit.mockResolvedValue({ id: 3 });
    const page = (
      <MemoryRouter>
        <ContactForm />
      </MemoryRouter>
    );
    const container = document.createElement('div');
    container.innerHTML = renderToString(page);
    document.body.append(container);
    const typeIntoServerForm = (label: RegExp, value: string) => {
      const control = screen.getByLabelText(label) as HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;
      control.value = value;
    };
    typeIntoServerForm(/^Імʼя/, 'Андрій Шевчук');
    typeIntoServerForm(/^Електронна пошта/, 'andrii@kava.lviv.ua');
    typeIntoServerForm(/^Телефон/, '+380 50 765 43 21');
    typeIntoServerForm(/^Послуга/, 'leads');
    typeIntoServerForm(/^Повідомлення/, 'Почав писати, поки сторінка вантажилась.');

    const root = await act(async () => hydrateRoot(container, page));
    // Still on screen, now in the form's hands: another field's edit does not wipe them.
    const user = userEvent.setup({ delay: null });
    await user.type(field(/^Компанія/), 'Кава на Ринку');
    expect(field(/^Імʼя/)).toHaveValue('Андрій Шевчук');
    expect(screen.getByText('Лідогенерація')).toBeInTheDocument();
    await user.click(submitButton());
    expect(submit).toHaveBeenCalledWith(
      {
        name: 'Андрій Шевчук',
        email: 'andrii@kava.lviv.ua',
        phone: '+380 50 765 43 21',
        company: 'Кава на Ринку',
        service_type: 'leads',
        message: 'Почав писати, поки сторінка вантажилась.',
      },
      GUARD,
      A_KEY,
    );
    act(() => root.unmount());
    container.remove();
  });

  it('sends the optional fields empty when they are left blank', async () => {
    submit.mockResolvedValue({ id: 2 });
    const user = renderForm();
    await fillRequired(user);
    await user.click(submitButton());
    expect(submit).toHaveBeenCalledWith({
      name: 'Андрій Шевчук',
      email: 'andrii@kava.lviv.ua',
      phone: '+380 50 765 43 21',
      company: '',
      service_type: '',
      message: 'Потрібне ведення Instagram для двох кавʼярень.',
    }, GUARD, A_KEY);
  });

  it('sends exactly the spec fields, resets every field and shows the success toast for 4 s', async () => {
    submit.mockResolvedValue({ id: 3 });
    const success = jest.spyOn(toast, 'success');
    const user = renderForm();
    await fillRequired(user);
    await user.type(field(/^Компанія/), 'Кава на Ринку');
    await chooseServiceType(user, 'Лідогенерація');
    await user.click(submitButton());

    expect(submit).toHaveBeenCalledTimes(1);
    expect(submit).toHaveBeenCalledWith({
      name: 'Андрій Шевчук',
      email: 'andrii@kava.lviv.ua',
      phone: '+380 50 765 43 21',
      company: 'Кава на Ринку',
      service_type: 'leads',
      message: 'Потрібне ведення Instagram для двох кавʼярень.',
    }, GUARD, A_KEY);
    expect(await screen.findByText(TOAST_MESSAGES.contactSuccess)).toBeInTheDocument();
    expect(success).toHaveBeenCalledWith(TOAST_MESSAGES.contactSuccess, expect.objectContaining({ autoClose: TOAST_DURATION_MS }));
    for (const label of [/^Імʼя/, /^Електронна пошта/, /^Телефон/, /^Компанія/, /^Повідомлення/]) {
      expect(field(label)).toHaveValue('');
    }
    expect(screen.queryByText('Лідогенерація')).not.toBeInTheDocument();
    expect(screen.getByText('Оберіть…')).toBeInTheDocument();
  });

  it('keeps every value and shows the error toast when sending fails', async () => {
    submit.mockRejectedValue(new Error('Request failed with status code 500'));
    const user = renderForm();
    await fillRequired(user);
    await user.type(field(/^Компанія/), 'Кава на Ринку');
    await chooseServiceType(user, 'Аналітика');
    await user.click(submitButton());

    expect(await screen.findByText(TOAST_MESSAGES.contactError)).toBeInTheDocument();
    expect(field(/^Імʼя/)).toHaveValue('Андрій Шевчук');
    expect(field(/^Електронна пошта/)).toHaveValue('andrii@kava.lviv.ua');
    expect(field(/^Телефон/)).toHaveValue('+380 50 765 43 21');
    expect(field(/^Компанія/)).toHaveValue('Кава на Ринку');
    expect(field(/^Повідомлення/)).toHaveValue('Потрібне ведення Instagram для двох кавʼярень.');
    expect(screen.getByText('Аналітика')).toBeInTheDocument();
    expect(screen.queryByText(TOAST_MESSAGES.contactSuccess)).not.toBeInTheDocument();
  });

  it('disables the submit button while the request is in flight and sends only once', async () => {
    let fail: (reason: Error) => void = () => undefined;
    submit.mockImplementation(() => new Promise((_resolve, reject) => (fail = reject)));
    const user = renderForm();
    await fillRequired(user);
    await user.click(submitButton());

    const busy = screen.getByRole('button', { name: 'Надсилаємо…' });
    expect(busy).toBeDisabled();
    await user.click(busy);
    expect(submit).toHaveBeenCalledTimes(1);
    // Fields are locked too: text typed now would be wiped by the reset after success.
    expect(field(/^Повідомлення/)).toBeDisabled();

    await act(async () => fail(new Error('Network Error')));
    await waitFor(() => expect(submitButton()).toBeEnabled());
  });

  it('tries again through a restart behind the site, under one key, and says so: one toast when it is stored', async () => {
    let resolveThird: (created: { id: number }) => void = () => undefined;
    submit
      .mockRejectedValueOnce(unavailable(503))
      .mockRejectedValueOnce(unavailable(502))
      .mockImplementationOnce(() => new Promise((resolve) => (resolveThird = resolve)));
    const success = jest.spyOn(toast, 'success');
    const error = jest.spyOn(toast, 'error');
    const user = renderForm();
    await fillRequired(user);
    await user.click(submitButton());

    // Still sending, said on the button and once in words; the values stay until it is stored.
    expect(await screen.findByRole('button', { name: 'Досі надсилаємо…' }, { timeout: 5000 })).toBeDisabled();
    expect(screen.getByRole('status')).toHaveTextContent('пробуємо ще раз');
    expect(field(/^Імʼя/)).toHaveValue('Андрій Шевчук');
    await waitFor(() => expect(submit).toHaveBeenCalledTimes(3), { timeout: 5000 });
    const keys = submit.mock.calls.map((call) => call[2]);
    expect(new Set(keys).size).toBe(1);

    await act(async () => resolveThird({ id: 12 }));
    expect(await screen.findByText(TOAST_MESSAGES.contactSuccess)).toBeInTheDocument();
    expect(success).toHaveBeenCalledTimes(1);
    expect(error).not.toHaveBeenCalled();
    expect(field(/^Імʼя/)).toHaveValue('');
    expect(screen.getByRole('status')).toHaveTextContent('');
    expect(submitButton()).toBeEnabled();
  });

  it('does not try a refused submission again: one request, the error toast, the values kept', async () => {
    submit.mockRejectedValue(unavailable(429));
    const user = renderForm();
    await fillRequired(user);
    await user.click(submitButton());

    expect(await screen.findByText(TOAST_MESSAGES.contactError)).toBeInTheDocument();
    expect(submit).toHaveBeenCalledTimes(1);
    expect(field(/^Телефон/)).toHaveValue('+380 50 765 43 21');
  });

  it('passes on what a bot typed into the hidden spam trap, which people never see', async () => {
    submit.mockResolvedValue({ id: 4 });
    const user = renderForm();
    await fillRequired(user);
    const trap = document.querySelector<HTMLInputElement>(`input[name="${HONEYPOT_FIELD}"]`);
    expect(trap).not.toBeNull();
    expect(trap).toHaveAttribute('tabindex', '-1');
    expect(trap?.closest('[aria-hidden="true"]')).not.toBeNull();
    await user.type(trap!, 'https://spam.example');
    await user.click(submitButton());
    expect(submit).toHaveBeenCalledWith(expect.objectContaining({ name: 'Андрій Шевчук' }), { ...GUARD, honeypot: 'https://spam.example' }, A_KEY);
  });
});
