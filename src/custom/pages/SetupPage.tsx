import type { ReactNode } from 'react';
import { Box, Card, CardContent, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { DocumentTitle } from '../../shell/DocumentTitle.tsx';
import { LocaleSwitcher } from '../../shell/LocaleSwitcher.tsx';

/**
 * The frame of the portal's pages without a session (setup, password reset, single sign-on, a portal
 * that does not exist): one card in the middle, one level-one heading, the language menu.
 */
export function CenteredPage({ title, children }: { title: string; children: ReactNode }) {
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
      <Card sx={{ width: '100%', maxWidth: 440 }}>
        <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
          <Typography variant="h5" component="h1">
            {title}
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

/** Guard 1 (SPEC 2): the tenant's setup is not completed yet. */
export default function SetupPage() {
  const translate = useTranslate();
  return (
    <CenteredPage title={translate('app.setup.title')}>
      <Typography>{translate('app.setup.being_set_up')}</Typography>
    </CenteredPage>
  );
}
