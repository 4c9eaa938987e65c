/** Toast texts and behaviour: what each submission says, how long and where. The shell's ToastContainer reads TOAST_CONTAINER. */
export const TOAST_DURATION_MS = 4000;

export const TOAST_MESSAGES = {
  applicationSuccess: 'Заявку успішно відправлено!',
  applicationError: 'Помилка при відправці заявки',
  contactSuccess: 'Повідомлення успішно відправлено!',
  contactError: 'Помилка при відправці повідомлення',
} as const;

export const TOAST_WIDTH_PX = 356;
export const TOAST_GAP_PX = 14;
/** Swipe distance that dismisses a toast. */
export const TOAST_SWIPE_DISMISS_PX = 45;

export const TOAST_CONTAINER = {
  position: 'bottom-right',
  autoClose: TOAST_DURATION_MS,
  limit: 3,
  closeButton: true,
  draggable: true,
  // react-toastify measures the swipe threshold in percent of the toast's width: 45 px of 356.
  draggablePercent: (TOAST_SWIPE_DISMISS_PX / TOAST_WIDTH_PX) * 100,
  pauseOnHover: true,
  newestOnTop: false,
  // The library's default label is English ("Notifications Alt+T"); Alt+T still focuses the toasts.
  'aria-label': 'Сповіщення (Alt+T)',
} as const;
