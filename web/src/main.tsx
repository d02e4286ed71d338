import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { useAuthStore } from './features/auth/auth.store';
import { startTheme } from './lib/theme';
import './index.css';

// The theme switch and the system's preference are followed from here on (theme-boot.js set the first paint's).
startTheme();

// Check the authentication state once, at start (SPEC.md §4 "Status check at start").
const authReady = useAuthStore.getState().checkStatus();

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element');

createRoot(container).render(
  <StrictMode>
    <App authReady={authReady} />
  </StrictMode>,
);
