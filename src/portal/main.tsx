import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Route, Routes } from 'react-router-dom';
import { AppShell } from '../shell/AppShell.tsx';

// react-admin inside our own router (history mode under /app): `<Admin basename>` alone renders a blank page.
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <BrowserRouter>
      <Routes>
        <Route path="/app/*" element={<AppShell kind="portal" />} />
      </Routes>
    </BrowserRouter>
  </StrictMode>,
);
