import type { FormEvent, ReactNode } from 'react';
import { Box, Card, CardContent, Typography } from '@mui/material';
import { DocumentTitle } from './DocumentTitle.tsx';
import { LocaleSwitcher } from './LocaleSwitcher.tsx';

/**
 * The frame of every page without a session (login, password reset, setup, single sign-on, a portal
 * that does not exist): one card in the middle of a grey page, one level-one heading, the content, the
 * language menu last. One frame, so these pages cannot drift apart in look or in landmarks.
 */
export function PublicPage({
  title,
  heading = title,
  maxWidth = 440,
  onSubmit,
  children,
}: {
  /** The page's name in the browser's title. */
  title: string;
  /** The level-one heading; by default the title. */
  heading?: string;
  maxWidth?: number;
  /** Makes the card's content the form (the login page), so Enter in any field submits it. */
  onSubmit?: (event: FormEvent) => void;
  children: ReactNode;
}) {
  const form = onSubmit ? ({ component: 'form', onSubmit, noValidate: true } as const) : {};
  return (
    <Box
      component="main"
      sx={{
        minHeight: '100vh',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        bgcolor: 'grey.100',
        p: 2,
      }}
    >
      <DocumentTitle section={title} />
      <Card sx={{ width: '100%', maxWidth }}>
        <CardContent {...form} sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
          <Typography variant="h5" component="h1">
            {heading}
          </Typography>
          {children}
          <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
            <LocaleSwitcher />
          </Box>
        </CardContent>
      </Card>
    </Box>
  );
}
