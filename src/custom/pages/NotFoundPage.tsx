import { Box, Link, Typography } from '@mui/material';
import { useBasename, useTranslate } from 'react-admin';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import { DocumentTitle } from '../../shell/DocumentTitle.tsx';
import { PublicPage } from '../../shell/PublicPage.tsx';

/**
 * 'Page not found' (SPEC 2): the catch-all of every unknown path. With `portal`, the page the status
 * guard sends to when this portal (tenant) does not exist, with its subdomain as `d` (guard 6).
 */
export default function NotFoundPage({ portal = false }: { portal?: boolean }) {
  const translate = useTranslate();
  const basename = useBasename();
  const [query] = useSearchParams();
  if (portal) {
    const name = query.get('d');
    return (
      <PublicPage title={translate('app.pages.portal_not_found')}>
        <Typography>
          {name
            ? translate('app.pages.portal_not_found_named', { name })
            : translate('app.pages.portal_not_found_text')}
        </Typography>
      </PublicPage>
    );
  }
  const title = translate('app.pages.not_found');
  return (
    <Box component="section" sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 2 }}>
      <DocumentTitle section={title} />
      <Typography variant="h5" component="h1">
        {title}
      </Typography>
      <Typography>{translate('app.pages.not_found_text')}</Typography>
      <Link component={RouterLink} to={`${basename}/tickets`}>
        {translate('app.pages.back_to_tickets')}
      </Link>
    </Box>
  );
}
