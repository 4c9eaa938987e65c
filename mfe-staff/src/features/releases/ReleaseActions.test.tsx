import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { StaffRelease, StaffReleaseApp } from '@agency/shared';
import { staffSend } from '../../shared/api/staff-api';
import { apiAnswered } from '../../shared/api/__mocks__/staff-api';
import { ReleaseActions } from './ReleaseActions';

jest.mock('../../shared/api/staff-api');
const send = jest.mocked(staffSend);

const release = (id: string): StaffRelease => ({ id, version: '1.0.0', revision: 'abc1234', builtAt: '2026-12-01T08:00:00.000Z', publishedAt: '2026-12-01T08:00:00.000Z', publishedBy: 'token:ci' });
const CURRENT = release('1.0.0-cur');
const PREVIOUS = release('1.0.0-prev');
const STAGED = release('1.0.0-staged');
const KEPT = release('1.0.0-kept');

const CALM: StaffReleaseApp = { app: 'blog', remote: true, revision: 12, current: CURRENT, previous: PREVIOUS, candidate: null, staged: [STAGED], kept: [KEPT] };
const CANARY: StaffReleaseApp = {
  ...CALM,
  candidate: { id: STAGED.id, share: 10, minViews: 40, promoteAfter: 500, since: '2026-12-02T09:00:00.000Z', release: STAGED },
  staged: [],
};

function renderActions(state: StaffReleaseApp) {
  const onChanged = jest.fn();
  const onRefused = jest.fn();
  render(<ReleaseActions state={state} onChanged={onChanged} onRefused={onRefused} />);
  return { onChanged, onRefused };
}

/** Confirms the dialog `title` with its button `label`. */
async function confirm(title: string, label: string) {
  await userEvent.click(within(screen.getByRole('dialog', { name: title })).getByRole('button', { name: label }));
}

beforeEach(() => jest.clearAllMocks());

describe('the actions on an app’s releases', () => {
  it('offers every kept release but the current, each with what it is', () => {
    renderActions(CALM);
    expect(within(screen.getByRole('combobox', { name: 'Реліз' })).getAllByRole('option').map((option) => option.textContent)).toEqual([
      `${PREVIOUS.id} (попередній)`,
      `${STAGED.id} (підготовлений)`,
      `${KEPT.id} (збережений)`,
    ]);
  });

  it('stages a kept release and copies its preview link', async () => {
    const user = userEvent.setup();
    const writeText = jest.spyOn(navigator.clipboard, 'writeText').mockResolvedValue(undefined);
    const { onChanged } = renderActions(CALM);
    const url = 'https://khvylia.example/?preview=signed.token';
    send.mockResolvedValue({ state: { ...CALM, revision: 13, staged: [KEPT, STAGED], kept: [] }, done: 'staged', previewUrl: url } as never);

    await user.selectOptions(screen.getByRole('combobox', { name: 'Реліз' }), KEPT.id);
    await user.click(screen.getByRole('button', { name: 'Підготувати посилання перегляду' }));
    expect(screen.getByRole('dialog', { name: 'Підготувати посилання перегляду?' })).toHaveAccessibleDescription(expect.stringContaining(`Реліз ${KEPT.id} буде записано як підготовлений`));
    await confirm('Підготувати посилання перегляду?', 'Підготувати посилання');

    expect(send).toHaveBeenCalledWith('post', '/releases/blog/stage', { release: KEPT.id, expect: { revision: 12 } });
    expect(onChanged).toHaveBeenCalledWith(expect.objectContaining({ previewUrl: url }));
    const field = screen.getByRole('textbox', { name: `Посилання попереднього перегляду ${KEPT.id} (діє 24 години, лише в одному браузері)` });
    expect(field).toHaveValue(url);
    await user.click(screen.getByRole('button', { name: 'Копіювати посилання' }));
    expect(writeText).toHaveBeenCalledWith(url);
    expect(screen.getByText('Посилання скопійовано.')).toBeInTheDocument();
  });

  it('selects the link for copying by hand when the clipboard refuses', async () => {
    const user = userEvent.setup();
    jest.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('denied'));
    renderActions(CALM);
    send.mockResolvedValue({ state: CALM, done: 'staged', previewUrl: 'https://khvylia.example/?preview=t' } as never);
    await user.click(screen.getByRole('button', { name: 'Підготувати посилання перегляду' }));
    await confirm('Підготувати посилання перегляду?', 'Підготувати посилання');
    await user.click(await screen.findByRole('button', { name: 'Копіювати посилання' }));
    expect(await screen.findByText(/^Не вдалося скопіювати автоматично/)).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /^Посилання попереднього перегляду/ })).toHaveFocus();
  });

  it('starts a canary at the share asked, and names what will happen', async () => {
    renderActions(CALM);
    send.mockResolvedValue({ state: CANARY, done: 'canary' } as never);
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Реліз' }), STAGED.id);
    const share = screen.getByRole('spinbutton', { name: 'Частка відвідувачів для канарки, %' });
    await userEvent.clear(share);
    await userEvent.type(share, '12.5');
    await userEvent.click(screen.getByRole('button', { name: 'Почати канарку' }));
    expect(screen.getByRole('dialog', { name: 'Почати канарку?' })).toHaveAccessibleDescription(expect.stringMatching(new RegExp(`^Реліз ${STAGED.id} отримуватимуть 12,5 % відвідувачів blog; решта — ${CURRENT.id}\\.`)));
    await confirm('Почати канарку?', 'Почати канарку');
    expect(send).toHaveBeenCalledWith('post', '/releases/blog/canary', { release: STAGED.id, share: 12.5, expect: { revision: 12 } });
  });

  it("changes the running candidate's share, keeping its rules", async () => {
    renderActions(CANARY);
    send.mockResolvedValue({ state: CANARY, done: 'canary' } as never);
    const share = screen.getByRole('spinbutton', { name: 'Нова частка відвідувачів, %' });
    expect(share).toHaveValue(10);
    await userEvent.clear(share);
    await userEvent.type(share, '50');
    await userEvent.click(screen.getByRole('button', { name: 'Змінити частку' }));
    await confirm('Змінити частку кандидата?', 'Змінити частку');
    expect(send).toHaveBeenCalledWith('post', '/releases/blog/canary', { release: STAGED.id, share: 50, minViews: 40, promoteAfter: 500, expect: { revision: 12 } });
    // A canary runs: no second one is offered.
    expect(screen.queryByRole('button', { name: 'Почати канарку' })).toBeNull();
  });

  it('rolls back to the previous release, and sends nothing when the dialog is cancelled', async () => {
    renderActions(CALM);
    await userEvent.click(screen.getByRole('button', { name: 'Відкотити до попереднього' }));
    expect(screen.getByRole('dialog', { name: 'Відкотити реліз?' })).toHaveAccessibleDescription(`Поточним для всіх відвідувачів blog знову стане ${PREVIOUS.id} замість ${CURRENT.id}.`);
    await userEvent.click(screen.getByRole('button', { name: 'Скасувати' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(send).not.toHaveBeenCalled();

    send.mockResolvedValue({ state: { ...CALM, current: PREVIOUS, previous: null }, done: 'rolled back' } as never);
    await userEvent.click(screen.getByRole('button', { name: 'Відкотити до попереднього' }));
    await confirm('Відкотити реліз?', 'Відкотити');
    expect(send).toHaveBeenCalledWith('post', '/releases/blog/rollback', { expect: { revision: 12 } });
    expect(await screen.findByRole('status')).toHaveTextContent(`Відкочено: поточний знову ${PREVIOUS.id}.`);
  });

  it("shows a refusal's own message; only a 409 asks for the state again", async () => {
    const { onRefused, onChanged } = renderActions(CANARY);
    send.mockRejectedValueOnce(apiAnswered(403, { error: { code: 'FORBIDDEN', message: 'Ви не можете змінювати релізи «blog»: цей застосунок вам не призначено' } }));
    await userEvent.click(screen.getByRole('button', { name: 'Зробити кандидата поточним' }));
    await confirm('Зробити кандидата поточним?', 'Зробити поточним');
    expect(await screen.findByRole('alert')).toHaveTextContent('Ви не можете змінювати релізи «blog»: цей застосунок вам не призначено');
    expect(onRefused).not.toHaveBeenCalled();

    send.mockRejectedValueOnce(apiAnswered(409, { error: { code: 'REFUSED', message: 'blog has no candidate to promote.' } }));
    await userEvent.click(screen.getByRole('button', { name: 'Зробити кандидата поточним' }));
    await confirm('Зробити кандидата поточним?', 'Зробити поточним');
    expect(await screen.findByRole('alert')).toHaveTextContent('blog has no candidate to promote.');
    expect(onRefused).toHaveBeenCalledTimes(1);
    expect(onChanged).not.toHaveBeenCalled();
  });
});
