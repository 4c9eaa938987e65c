import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from '@agency/shared/router';
import { StandalonePage } from './StandalonePage';

// Only the remote's own development page starts here; the shell never loads this file.
const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');
createRoot(container).render(
  <StrictMode>
    {/* On the site the shell's router is the one; alone, the links need one of their own. */}
    <BrowserRouter>
      <StandalonePage />
    </BrowserRouter>
  </StrictMode>,
);
