import { Box, CircularProgress } from '@mui/material';
import { START_TEXTS, storedLocale } from '../i18n/index.ts';

/** Shown before react-admin (and its translate) exists, before any language is loaded: ../i18n START_TEXTS. */
export function Waiting() {
  const label = START_TEXTS[storedLocale()].loading;
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', alignItems: 'center', minHeight: '100vh' }}>
      <CircularProgress aria-label={label} />
    </Box>
  );
}
