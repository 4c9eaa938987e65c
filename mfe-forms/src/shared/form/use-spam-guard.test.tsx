import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ToastContainer, toast } from 'react-toastify';
import { formTokenField, TOAST_CONTAINER } from '@agency/shared';
import { MemoryRouter } from '@agency/shared/router';
import { fetchFormChallenge, submitContactMessage } from '@agency/shared/api-client';
import ContactForm from '../../features/contact/ContactForm';
import { solveProof } from './solve-proof';

// The form's part of the spam defence, as the contact form uses it.

jest.mock('@agency/shared/api-client');
jest.mock('./solve-proof', () => ({ solveProof: jest.fn(async () => 'solved-proof') }));
const submit = jest.mocked(submitContactMessage);
const challenge = jest.mocked(fetchFormChallenge);
const solve = jest.mocked(solveProof);

/** A token as the API makes them, issued `ageMs` ago: `<form>.<ms, base 36>.<nonce>.<MAC>`. */
const tokenIssued = (ageMs: number, nonce = 'AAAAAAAAAAAAAAAA') => `contact.${(Date.now() - ageMs).toString(36)}.${nonce}.BBBBBBBBBBBBBBBBBBBBBB`;
const FETCHED = tokenIssued(0, 'FFFFFFFFFFFFFFFF');

/** The contact form; with `pageToken`, the hidden field the server adds at the page's end for it. */
function renderForm(pageToken?: string) {
  const user = userEvent.setup({ delay: null });
  render(
    <MemoryRouter>
      <ContactForm />
      <ToastContainer {...TOAST_CONTAINER} />
      {pageToken && <div dangerouslySetInnerHTML={{ __html: formTokenField('contact', pageToken) }} />}
    </MemoryRouter>,
  );
  return user;
}

async function fillAndSend(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText(/^Імʼя/), 'Олена');
  await user.type(screen.getByLabelText(/^Електронна пошта/), 'olena@example.com');
  await user.type(screen.getByLabelText(/^Телефон/), '0671234567');
  await user.type(screen.getByLabelText(/^Повідомлення/), 'Потрібен SMM для пекарні.');
  await user.click(screen.getByRole('button', { name: 'Надіслати повідомлення' }));
}

beforeEach(() => {
  challenge.mockResolvedValue({ token: FETCHED, challenge: {} as never });
  submit.mockResolvedValue({ id: 1 });
});

afterEach(() => {
  act(() => toast.dismiss());
  submit.mockReset();
  challenge.mockReset();
  solve.mockClear();
});

describe('useSpamGuard (the contact form)', () => {
  it('asks for nothing until the person uses the form: a page view costs no challenge', async () => {
    const user = renderForm();
    expect(challenge).not.toHaveBeenCalled();
    await user.click(screen.getByLabelText(/^Імʼя/));
    await waitFor(() => expect(solve).toHaveBeenCalledTimes(1));
    expect(challenge).toHaveBeenCalledTimes(1);
    expect(challenge).toHaveBeenCalledWith('contact');
  });

  it('sends the token the page came with first, and a fetched one for the next submission', async () => {
    const pageToken = tokenIssued(60_000);
    const user = renderForm(pageToken);
    await fillAndSend(user);
    await waitFor(() => expect(submit).toHaveBeenCalledTimes(1));
    expect(submit.mock.calls[0]?.[1]).toEqual({ honeypot: '', formToken: pageToken, proof: 'solved-proof' });
    await fillAndSend(user);
    await waitFor(() => expect(submit).toHaveBeenCalledTimes(2));
    expect(submit.mock.calls[1]?.[1]).toEqual({ honeypot: '', formToken: FETCHED, proof: 'solved-proof' });
    // One challenge a submission: the second was fetched anew after the first was sent.
    expect(challenge).toHaveBeenCalledTimes(2);
  });

  it('does not send a page token more than an hour old: the fetched one is fresher', async () => {
    const user = renderForm(tokenIssued(2 * 3_600_000));
    await fillAndSend(user);
    await waitFor(() => expect(submit).toHaveBeenCalledTimes(1));
    expect(submit.mock.calls[0]?.[1]).toMatchObject({ formToken: FETCHED });
  });

  it('still sends the person’s submission when the challenge cannot be had', async () => {
    challenge.mockRejectedValue(new Error('Network Error'));
    const user = renderForm();
    await fillAndSend(user);
    await waitFor(() => expect(submit).toHaveBeenCalledTimes(1));
    expect(submit.mock.calls[0]?.[0]).toMatchObject({ name: 'Олена', message: 'Потрібен SMM для пекарні.' });
    expect(submit.mock.calls[0]?.[1]).toEqual({ honeypot: '', formToken: undefined, proof: undefined });
  });
});
