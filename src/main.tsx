import './index.css';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app';

const container = document.getElementById('root');
if (!container) throw new Error('missing #root element');

// Prerendered pages hydrate; the others (and the shell) render from scratch.
if (container.dataset.prerendered === 'true') hydrateRoot(container, <App />);
else createRoot(container).render(<App />);
