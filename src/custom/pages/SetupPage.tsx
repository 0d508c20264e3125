import { Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { PublicPage } from '../../shell/PublicPage.tsx';

/** Guard 1 (SPEC 2): the tenant's setup is not completed yet. */
export default function SetupPage() {
  const translate = useTranslate();
  return (
    <PublicPage title={translate('app.setup.title')}>
      <Typography>{translate('app.setup.being_set_up')}</Typography>
    </PublicPage>
  );
}
