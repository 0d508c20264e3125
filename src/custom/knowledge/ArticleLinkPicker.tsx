/**
 * "Article link" in the back office's message editor (issue 39, item 4): a button that opens a dialog
 * searching the knowledge base (full-text, as the portal's suggestions do); choosing an article hands
 * a link to it to `onPick`, which inserts it at the editor's cursor. A public article links to its
 * public page (/kb/…, no sign-in needed); any other to its page in the portal (/app/knowledge-articles/…),
 * which shows it to the clients who may read it. Shown only to a user who may list the articles.
 */
import { useId, useState } from 'react';
import {
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
  TextField,
  Typography,
} from '@mui/material';
import InsertLink from '@mui/icons-material/InsertLink';
import { useTranslate } from 'react-admin';
import { EditorPickerButton } from '../thread/EditorPickerButton.tsx';
import { publicArticlePath } from '../../../common/knowledge.ts';
import { ARTICLES, useArticleSearch, useDelayed, type ArticleHit } from './articleSearch.ts';

const SEARCH_DELAY_MS = 250;

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The link's HTML: the article's title, pointing at the page its readers can open. */
export function articleLink(hit: ArticleHit, origin = window.location.origin): string {
  const path = hit.public ? publicArticlePath(hit.id, hit.title) : `/app/${ARTICLES}/${hit.id}`;
  return `<a href="${escape(origin + path)}">${escape(hit.title)}</a>`;
}

function PickerDialog({ onClose, onPick }: { onClose: () => void; onPick: (html: string) => void }) {
  const translate = useTranslate();
  const titleId = useId();
  const hintId = useId();
  const [text, setText] = useState('');
  const search = useDelayed(text, SEARCH_DELAY_MS);
  const { data, isFetching } = useArticleSearch(search, { limit: 10, min: 2 });
  const hits = search.trim().length >= 2 ? (data ?? []) : [];
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby={titleId} disableRestoreFocus>
      <DialogTitle id={titleId}>{translate('knowledge.link_title')}</DialogTitle>
      <DialogContent>
        <Typography id={hintId} variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
          {translate('knowledge.link_hint')}
        </Typography>
        <TextField
          autoFocus
          fullWidth
          size="small"
          type="search"
          label={translate('knowledge.link_search')}
          value={text}
          onChange={(e) => setText(e.target.value)}
          slotProps={{ htmlInput: { 'aria-describedby': hintId } }}
          sx={{ mt: 0.5 }}
        />
        {isFetching && hits.length === 0 ? (
          <Box sx={{ display: 'flex', justifyContent: 'center', py: 2 }}>
            <CircularProgress size={24} aria-label={translate('ra.page.loading')} />
          </Box>
        ) : search.trim().length >= 2 && hits.length === 0 ? (
          <Typography role="status" sx={{ py: 2 }}>
            {translate('knowledge.link_none')}
          </Typography>
        ) : (
          <List aria-label={translate('knowledge.link_list')} dense>
            {hits.map((hit) => (
              <ListItem key={hit.id} disablePadding>
                <ListItemButton onClick={() => onPick(articleLink(hit))}>
                  <ListItemText primary={hit.title} secondary={hit.excerpt} />
                </ListItemButton>
              </ListItem>
            ))}
          </List>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('knowledge.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}

export default function ArticleLinkPicker({
  disabled,
  onPick,
}: {
  disabled?: boolean;
  onPick: (html: string) => void;
}) {
  const translate = useTranslate();
  return (
    <EditorPickerButton
      resource={ARTICLES}
      icon={<InsertLink />}
      label={translate('knowledge.link_button')}
      disabled={disabled}
      onPick={onPick}
      Dialog={PickerDialog}
      dialogProps={{}}
    />
  );
}
