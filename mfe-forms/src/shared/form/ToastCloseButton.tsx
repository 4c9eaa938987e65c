import type { CloseButtonProps } from 'react-toastify';

/**
 * react-toastify's own close button is labelled "close" in English; this one keeps its look
 * (the library's classes, which the shell styles) and speaks Ukrainian.
 */
export function ToastCloseButton({ closeToast, theme }: CloseButtonProps) {
  return (
    <button
      type="button"
      className={`Toastify__close-button Toastify__close-button--${theme}`}
      aria-label="Закрити сповіщення"
      onClick={(event) => {
        // Keeps the click from also reaching the toast's own click handler.
        event.stopPropagation();
        closeToast(true);
      }}
    >
      <svg aria-hidden="true" viewBox="0 0 14 16" focusable="false">
        <path
          fillRule="evenodd"
          d="M7.71 8.23l3.75 3.75-1.48 1.48-3.75-3.75-3.75 3.75L1 11.98l3.75-3.75L1 4.48 2.48 3l3.75 3.75L9.98 3l1.48 1.48-3.75 3.75z"
        />
      </svg>
    </button>
  );
}
