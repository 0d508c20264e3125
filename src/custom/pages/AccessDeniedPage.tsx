import { Box, Link, Typography } from '@mui/material';
import { useBasename, useTranslate } from 'react-admin';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import { DocumentTitle } from '../../shell/DocumentTitle.tsx';
import { isQuoteLinkOnly, quoteLinkPath } from '../../authProvider/quoteLink.ts';

/** 'Access denied' (SPEC 2): where guard 4 sends a route the user holds no permission for. */
export default function AccessDeniedPage() {
  const translate = useTranslate();
  const basename = useBasename();
  const [query] = useSearchParams();
  const path = query.get('path');
  const title = translate('app.pages.access_denied');
  return (
    <Box component="section" sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 2 }}>
      <DocumentTitle section={title} />
      <Typography variant="h5" component="h1">
        {title}
      </Typography>
      <Typography>{translate('app.pages.access_denied_text')}</Typography>
      {path && (
        <Typography>
          {translate('app.pages.attempted_path')}{' '}
          <Box component="code" sx={{ wordBreak: 'break-all' }}>
            {path}
          </Box>
        </Typography>
      )}
      {isQuoteLinkOnly() ? (
        // A quote link's holder cannot open the tickets either: back to their quote, or sign in.
        <>
          {quoteLinkPath() && (
            <Link component={RouterLink} to={`${basename}${quoteLinkPath()}`}>
              {translate('app.pages.back_to_quote')}
            </Link>
          )}
          <Link component={RouterLink} to={`${basename}/login`}>
            {translate('app.pages.sign_in_to_open')}
          </Link>
        </>
      ) : (
        <Link component={RouterLink} to={`${basename}/tickets`}>
          {translate('app.pages.back_to_tickets')}
        </Link>
      )}
    </Box>
  );
}
