import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Route, Routes } from 'react-router-dom';
import { AppShell } from '../shell/AppShell.tsx';
import { loadLanguage, storedLocale } from '../i18n/index.ts';

// The starting language is a chunk of its own: its download starts now, beside the app's first calls,
// and the app renders its screens once it is there (../shell/AppShell.tsx).
void loadLanguage(storedLocale()).catch(() => undefined);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <BrowserRouter>
      <Routes>
        <Route path="/*" element={<AppShell kind="backoffice" />} />
      </Routes>
    </BrowserRouter>
  </StrictMode>,
);
