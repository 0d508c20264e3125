import { Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { useTranslate } from 'react-admin';

/** The spinner a page shows while its lazy chunk downloads (the dashboard, exports, reports). */
function PageLoading() {
  const translate = useTranslate();
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
      <CircularProgress aria-label={translate('ra.page.loading')} />
    </Box>
  );
}

/** A page of its own lazy chunk (./lazy.ts lazyWithTimeout), with the spinner until it is there. */
export function LazyPage({ page: Page }: { page: LazyExoticComponent<ComponentType> }) {
  return (
    <Suspense fallback={<PageLoading />}>
      <Page />
    </Suspense>
  );
}
