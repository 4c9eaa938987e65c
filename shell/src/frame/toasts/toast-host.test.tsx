import { act, fireEvent, screen } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { hydrateRoot } from 'react-dom/client';
import { toast } from 'react-toastify';
import { TOAST_CONTAINER } from '@agency/shared';
import { SiteToastContainer } from './SiteToastContainer';
import { ToastHost } from './ToastHost';

const LIVE_REGION = { name: TOAST_CONTAINER['aria-label'] };

/** Lets pending promises, timers and React's work run. */
async function settle(): Promise<void> {
  await act(() => new Promise<void>((resolve) => setTimeout(resolve, 20)));
}

describe('ToastHost', () => {
  it("keeps the server's live region, and shows a toast sent before the visitor's first action once they act", async () => {
    const page = document.createElement('div');
    page.innerHTML = renderToString(<ToastHost container={SiteToastContainer} />);
    document.body.append(page);
    const redrawn = jest.fn();
    await act(async () => {
      hydrateRoot(page, <ToastHost />, { onRecoverableError: redrawn });
    });
    await settle();
    expect(screen.getByRole('region', LIVE_REGION)).toBeInTheDocument();

    act(() => {
      toast.success('Повідомлення успішно відправлено!');
    });
    await settle();
    expect(screen.queryByText('Повідомлення успішно відправлено!')).not.toBeInTheDocument();

    fireEvent.pointerDown(document.body);
    expect(await screen.findByText('Повідомлення успішно відправлено!')).toBeInTheDocument();
    expect(screen.getAllByRole('region', LIVE_REGION)).toHaveLength(1);
    expect(redrawn).not.toHaveBeenCalled();
  });
});
