import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from '@agency/shared/router';
import { App } from './app/App';
import { captureServerSlots } from './features/federation/server-slots';
import './styles/global.css';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');
// The page arrives rendered by the server; React renders it again from the same components, and
// each slot keeps the server's markup until its remote has loaded.
captureServerSlots(container);

createRoot(container).render(
  <StrictMode>
    <BrowserRouter>
      <App />
    </BrowserRouter>
  </StrictMode>,
);
