import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { StandalonePage } from './StandalonePage';

// Only the remote's own development page starts here; the shell never loads this file.
const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');
createRoot(container).render(
  <StrictMode>
    <StandalonePage />
  </StrictMode>,
);
