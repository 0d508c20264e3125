import type { ReactNode } from 'react';
import { Box, Typography } from '@mui/material';
import { DocumentTitle } from '../../shell/DocumentTitle.tsx';

/**
 * A record or create screen's frame: its padding, the document title and its one level-one heading,
 * with `actions` (a download button) on the heading's row when there are any.
 */
export function ScreenFrame({
  title,
  actions,
  children,
}: {
  title: string;
  actions?: ReactNode;
  children: ReactNode;
}) {
  const heading = (
    <Typography variant="h5" component="h1" sx={actions ? { flexGrow: 1 } : { mb: 2 }}>
      {title}
    </Typography>
  );
  return (
    <Box sx={{ p: { xs: 1, sm: 2 } }}>
      <DocumentTitle section={title} />
      {actions ? (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', mb: 2 }}>
          {heading}
          {actions}
        </Box>
      ) : (
        heading
      )}
      {children}
    </Box>
  );
}
