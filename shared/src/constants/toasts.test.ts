import { TOAST_CONTAINER, TOAST_DURATION_MS, TOAST_GAP_PX, TOAST_MESSAGES, TOAST_WIDTH_PX } from './toasts';

// Spec sections 8 and 9: these values reach every toast through the shell's one container.
describe('toast configuration', () => {
  it('matches the spec: bottom-right, 4 s, at most 3, 356 px wide, 14 px apart, closable', () => {
    expect(TOAST_CONTAINER).toMatchObject({ position: 'bottom-right', autoClose: 4000, limit: 3, closeButton: true });
    expect(TOAST_DURATION_MS).toBe(4000);
    expect(TOAST_WIDTH_PX).toBe(356);
    expect(TOAST_GAP_PX).toBe(14);
  });

  it('dismisses on a swipe of about 45 px of the 356 px toast', () => {
    expect(TOAST_CONTAINER.draggable).toBe(true);
    expect((TOAST_CONTAINER.draggablePercent / 100) * TOAST_WIDTH_PX).toBeCloseTo(45, 0);
  });

  it('uses the spec texts', () => {
    expect(TOAST_MESSAGES).toEqual({
      applicationSuccess: 'Заявку успішно відправлено!',
      applicationError: 'Помилка при відправці заявки',
      contactSuccess: 'Повідомлення успішно відправлено!',
      contactError: 'Помилка при відправці повідомлення',
    });
  });
});
