import { Box, Button, Typography } from '@mui/material';
import ErrorOutline from '@mui/icons-material/ErrorOutline';
import Refresh from '@mui/icons-material/Refresh';
import { useTranslate } from 'react-admin';

/**
 * What a list or a detail shows when its data could not be loaded (a 5xx, no answer): the failure
 * said in place of the rows or the record, and a button that asks again. The toast said it once; this
 * stays until the retry succeeds, so the screen never pretends to be loading or empty.
 */
export function LoadFailed({
  text,
  onRetry,
  heading,
}: {
  text: string;
  onRetry: () => void;
  /** The page's own heading when nothing else on the page has one (a detail without its record). */
  heading?: string;
}) {
  const translate = useTranslate();
  return (
    <Box
      data-testid="load-failed"
      sx={{ py: 6, px: 2, display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 2 }}
    >
      {heading && (
        <Typography variant="h5" component="h1">
          {heading}
        </Typography>
      )}
      <Typography variant="body1" color="text.primary" sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <ErrorOutline color="error" aria-hidden="true" />
        {translate(text)}
      </Typography>
      <Button variant="outlined" startIcon={<Refresh />} onClick={onRetry}>
        {translate('app.errors.retry')}
      </Button>
    </Box>
  );
}
