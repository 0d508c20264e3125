import { Box, Button, Typography } from '@mui/material';
import ErrorOutline from '@mui/icons-material/ErrorOutline';
import Refresh from '@mui/icons-material/Refresh';
import { useTranslate } from 'react-admin';

/**
 * What a list or a detail shows when its data could not be loaded (a 5xx, no answer): the failure
 * said in place of the rows or the record, and a button that asks again. The toast said it once; this
 * stays until the retry succeeds, so the screen never pretends to be loading or empty.
 *
 * `compact`: one line, in place of a figure of a detail that did show (its custom fields, its time
 * chips: ../custom/detail/readBeforeShow.ts), so the screen does not pretend the figure is empty.
 * `inList`: it stands in a definition list (a detail card's `<dl>`, as its direct child, a whole row): the
 * failure is a term (`<dt>`), the retry its description (`<dd>`).
 */
export function LoadFailed({
  text,
  onRetry,
  heading,
  compact = false,
  inList = false,
}: {
  text: string;
  onRetry: () => void;
  /** The page's own heading when nothing else on the page has one (a detail without its record). */
  heading?: string;
  compact?: boolean;
  inList?: boolean;
}) {
  const translate = useTranslate();
  return (
    <Box
      data-testid="load-failed"
      sx={
        compact
          ? { display: 'flex', alignItems: 'center', flexWrap: 'wrap', columnGap: 1, width: '100%' }
          : { py: 6, px: 2, display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 2 }
      }
    >
      {heading && (
        <Typography variant="h5" component="h1">
          {heading}
        </Typography>
      )}
      <Typography
        component={inList ? 'dt' : 'p'}
        variant={compact ? 'body2' : 'body1'}
        color="text.primary"
        sx={{ display: 'flex', alignItems: 'center', gap: 1 }}
      >
        <ErrorOutline color="error" aria-hidden="true" fontSize={compact ? 'small' : 'medium'} />
        {translate(text)}
      </Typography>
      <Box component={inList ? 'dd' : 'div'} sx={{ m: 0 }}>
        <Button
          variant={compact ? 'text' : 'outlined'}
          size={compact ? 'small' : 'medium'}
          startIcon={<Refresh />}
          onClick={onRetry}
        >
          {translate('app.errors.retry')}
        </Button>
      </Box>
    </Box>
  );
}
