/**
 * Knowledge articles suggested while a client types a new ticket's description (issue 39, item 4):
 * 400 ms after the last keystroke the description is searched (full-text, the client's own articles
 * only: the server scopes it) and up to five articles show under the field. Opening one shows it in a
 * dialog; "This solved it" counts a deflection (POST /knowledge-articles/{id}/deflect) and leaves the
 * form without creating a ticket; "Back to my ticket" closes the dialog, keeping what was typed.
 */
import { useId, useState } from 'react';
import { useWatch } from 'react-hook-form';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  List,
  ListItem,
  ListItemButton,
  ListItemText,
  Typography,
} from '@mui/material';
import { useCanAccess, useGetOne, useNotify, useRedirect, useTranslate } from 'react-admin';
import { useActionsProvider } from '../detail/recordActions.tsx';
import { useNotifyError } from '../../shell/errors.ts';
import { ARTICLES, useArticleSearch, useDelayed, type ArticleHit } from './articleSearch.ts';

const TYPING_PAUSE_MS = 400;

function ArticleDialog({ hit, onClose }: { hit: ArticleHit; onClose: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const notifyError = useNotifyError();
  const redirect = useRedirect();
  const dataProvider = useActionsProvider();
  const titleId = useId();
  const [busy, setBusy] = useState(false);
  const { data, isPending, error } = useGetOne<{ id: number; title: string; body: string }>(ARTICLES, {
    id: hit.id,
  });
  const solved = async () => {
    setBusy(true);
    try {
      await dataProvider.call('POST', `${ARTICLES}/${hit.id}/deflect`);
      notify('knowledge.solved_thanks', { type: 'success' });
      redirect('list', 'tickets');
    } catch (e) {
      setBusy(false);
      notifyError(e);
    }
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" aria-labelledby={titleId} scroll="paper">
      <DialogTitle id={titleId}>{data?.title ?? hit.title}</DialogTitle>
      <DialogContent dividers>
        {error ? (
          <Alert severity="error">{translate('knowledge.failed')}</Alert>
        ) : isPending ? (
          <CircularProgress size={24} aria-label={translate('ra.page.loading')} />
        ) : (
          <Box
            className="article-body"
            sx={{
              overflowWrap: 'anywhere',
              '& img': { maxWidth: '100%', height: 'auto' },
              '& a': { color: '#1a4f8b' },
            }}
            // Sanitised by the server when it was stored (format html), as a message is.
            dangerouslySetInnerHTML={{ __html: data?.body ?? '' }}
          />
        )}
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        <Button onClick={onClose}>{translate('knowledge.not_solved')}</Button>
        <Button variant="contained" onClick={() => void solved()} disabled={busy || !data}>
          {translate('knowledge.solved')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

export default function ArticleSuggestions({ source = 'description' }: { source?: string }) {
  const translate = useTranslate();
  const headingId = useId();
  const typed = useWatch({ name: source }) as unknown;
  const text = useDelayed(typeof typed === 'string' ? typed : '', TYPING_PAUSE_MS);
  const { canAccess } = useCanAccess({ resource: ARTICLES, action: 'list' });
  const { data } = useArticleSearch(text, { enabled: !!canAccess });
  const [open, setOpen] = useState<ArticleHit | null>(null);
  const hits = text.trim().length >= 3 ? (data ?? []) : [];
  return (
    <Box aria-live="polite" sx={{ width: '100%', mb: hits.length ? 2 : 0 }}>
      {hits.length > 0 && (
        <Box
          component="section"
          aria-labelledby={headingId}
          data-testid="article-suggestions"
          sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5, bgcolor: 'action.hover' }}
        >
          <Typography id={headingId} variant="subtitle1" component="h2" sx={{ fontWeight: 500 }}>
            {translate('knowledge.suggestions')}
          </Typography>
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {translate('knowledge.suggestions_hint')}
          </Typography>
          <List dense disablePadding>
            {hits.map((hit) => (
              <ListItem key={hit.id} disablePadding>
                <ListItemButton onClick={() => setOpen(hit)} sx={{ borderRadius: 1 }}>
                  <ListItemText
                    primary={hit.title}
                    secondary={hit.excerpt}
                    slotProps={{ primary: { sx: { color: '#1a4f8b', fontWeight: 500 } } }}
                  />
                </ListItemButton>
              </ListItem>
            ))}
          </List>
        </Box>
      )}
      {open && <ArticleDialog hit={open} onClose={() => setOpen(null)} />}
    </Box>
  );
}
