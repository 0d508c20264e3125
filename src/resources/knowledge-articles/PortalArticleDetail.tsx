/**
 * A knowledge article in the portal (issue 39, item 4): its title and its text as the page it is, the
 * rich text shown as HTML (sanitised by the server when stored, images signed for this reader), where
 * the generic detail would list the field's markup as text.
 */
import { Alert, Box, Card, CardContent, CircularProgress, Typography } from '@mui/material';
import { Link, useGetOne, useTranslate } from 'react-admin';
import { useParams } from 'react-router-dom';
import { DocumentTitle } from '../../shell/DocumentTitle.tsx';

const ARTICLES = 'knowledge-articles';

export default function PortalArticleDetail() {
  const translate = useTranslate();
  const { id } = useParams<{ id: string }>();
  const { data, isPending, error } = useGetOne<{
    id: number | string;
    title: string;
    body: string;
    updated_at: string;
  }>(ARTICLES, { id: id! }, { enabled: id !== undefined, retry: false });
  const listName = translate(`resources.${ARTICLES}.name`, { smart_count: 2 });
  return (
    <Box sx={{ p: { xs: 1, sm: 2 }, maxWidth: 900 }}>
      <Link to={`/${ARTICLES}`}>{listName}</Link>
      {error ? (
        <Alert severity="error" sx={{ mt: 2 }}>
          {translate('knowledge.failed')}
        </Alert>
      ) : isPending || !data ? (
        <CircularProgress size={24} aria-label={translate('ra.page.loading')} sx={{ mt: 2 }} />
      ) : (
        <>
          <DocumentTitle section={data.title} />
          <Typography variant="h5" component="h1" sx={{ my: 2 }}>
            {/* The form every detail's heading has ("Type - label"), so the page reads as the others do. */}
            {translate('app.title.record', {
              label: data.title,
              type: translate(`resources.${ARTICLES}.name`, { smart_count: 1 }),
            })}
          </Typography>
          <Card>
            <CardContent
              className="article-body"
              sx={{
                overflowWrap: 'anywhere',
                '& img': { maxWidth: '100%', height: 'auto' },
                '& a': { color: '#1a4f8b' },
              }}
              // Sanitised by the server when it was stored (format html), as a message is.
              dangerouslySetInnerHTML={{ __html: data.body }}
            />
          </Card>
          <Typography variant="body2" sx={{ mt: 1, color: 'text.secondary' }}>
            {translate(`resources.${ARTICLES}.fields.updated_at`)}:{' '}
            {new Date(data.updated_at).toLocaleDateString()}
          </Typography>
        </>
      )}
    </Box>
  );
}
