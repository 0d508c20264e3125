/**
 * The new-message form under a thread (SPEC 5, 7, 8): the editor, files chosen with a file input (sent
 * as file[0], file[1]…), and the buttons. In the portal the client sends (`action` send_from_portal,
 * always from and visible to the client). In the back office an operator sends to the client (only
 * when the record is not a template and the client has an e-mail or the ticket an original sender) or
 * saves an internal note. Success: the 'message sent' toast, the form empties, the thread reloads.
 * Failure: loading ends and the text stays (SPEC 8); the error toast says why, and a 422 (a refused
 * file, an empty message) puts each line under what it is about: a file's under that file, the
 * others under the editor.
 */
import { lazy, Suspense, useId, useRef, useState } from 'react';
import { Box, Button, CircularProgress, IconButton, Stack, Typography } from '@mui/material';
import Close from '@mui/icons-material/Close';
import AttachFile from '@mui/icons-material/AttachFile';
import Send from '@mui/icons-material/Send';
import NoteAdd from '@mui/icons-material/NoteAdd';
import { useDataProvider, useNotify, useTranslate, type Identifier } from 'react-admin';
import type { Editor } from '@tiptap/react';
import type { ServiceDeskDataProvider } from '../../dataProvider/index.ts';
import { embeddedAttachmentIds, isEmptyHtml, messageFormData, type NewMessage } from './helpers.ts';
import type { MentionCandidate } from './mentions.tsx';
import { FileIcon } from './AttachmentList.tsx';
import { serverTextKey, useNotifyError } from '../../shell/errors.ts';
import { useShortcuts } from '../shortcuts/keys.ts';
import StandardAnswerPicker from './StandardAnswerPicker.tsx';
import ArticleLinkPicker from '../knowledge/ArticleLinkPicker.tsx';
import { EDITOR_FRAME_HEIGHT } from './editorSize.ts';
import type { PlaceholderValues } from './placeholders.ts';

const MessageEditor = lazy(() => import('./MessageEditor.tsx'));

export interface MessageFormProps {
  morphType: string;
  morphId: Identifier;
  portal: boolean;
  /** Back office: the 'send to client' button shows (SPEC 5). */
  canSend: boolean;
  description?: string | null;
  mentions?: MentionCandidate[];
  /** Back office: what a standard answer's placeholders become (issue 18 item 6); none, no picker. */
  placeholders?: PlaceholderValues;
  onSent: () => void;
}

type Mode = 'portal' | 'send_to_client' | 'internal_note';

/** A 422's key for the n-th file of the form (the form sends file[0], file[1], …). */
const FILE_FIELD = /^file\[\d+\]$/;

/** A field's refused lines, one a line, in the error colour, under what they are about. */
function RefusedLines({ text }: { text: string }) {
  return (
    <Typography
      variant="body2"
      color="error"
      data-testid="refused-lines"
      sx={{ mt: 0.5, whiteSpace: 'pre-line', maxWidth: 480 }}
    >
      {text}
    </Typography>
  );
}

export default function MessageForm({
  morphType,
  morphId,
  portal,
  canSend,
  description,
  mentions,
  placeholders,
  onSent,
}: MessageFormProps) {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<ServiceDeskDataProvider>();
  const headingId = useId();
  const fileInputId = useId();
  const [html, setHtml] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [uploadedIds, setUploadedIds] = useState<number[]>([]);
  const [uploading, setUploading] = useState(false);
  const [sending, setSending] = useState<Mode | null>(null);
  const [formKey, setFormKey] = useState(0);
  /** A 422's lines per field (`message`, `file[0]`, …), as the error catalogue shaped them. */
  const [refused, setRefused] = useState<Record<string, string>>({});
  const notifyError = useNotifyError();
  const editor = useRef<Editor | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const section = useRef<HTMLElement>(null);
  // Back office, issue 18 item 8: `r` starts a reply, `n` an internal note. Both write in this editor;
  // the one started is the highlighted button (its visible twin), the other stays one click away.
  const [intent, setIntent] = useState<'reply' | 'note'>('reply');
  const write = (next: 'reply' | 'note') => {
    setIntent(next);
    section.current?.scrollIntoView({ block: 'nearest' });
    editor.current?.commands.focus('end');
  };
  useShortcuts({ r: () => write('reply'), n: () => write('note') }, !portal);
  const noteFirst = intent === 'note' || !canSend;

  // The debounced change may still be on its way: read the editor itself when it is there.
  const currentHtml = () =>
    editor.current && !editor.current.isDestroyed && editor.current.view ? editor.current.getHTML() : html;
  const empty = isEmptyHtml(html) && files.length === 0;

  const submit = async (mode: Mode) => {
    const text = currentHtml();
    if (isEmptyHtml(text) && files.length === 0) return;
    const values: NewMessage = {
      message: text,
      morphable_type: morphType,
      morphable_id: morphId,
      is_from_client: portal,
      visible_to_client: mode !== 'internal_note',
      description: description ?? undefined,
      // Inline images are linked by the server from the HTML too; the ids say it explicitly.
      attachment_ids: embeddedAttachmentIds(text).filter((id) => uploadedIds.includes(id)),
      files,
    };
    if (mode === 'portal') values.action = 'send_from_portal';
    if (mode === 'send_to_client') values.send_to_client = true;
    setSending(mode);
    setRefused({});
    try {
      const saved = await dataProvider.createMultipart<{ mail_error?: string }>(
        'messages',
        messageFormData(values),
      );
      // The message stands when its e-mail failed (the server says so): the operator must know.
      if (saved.mail_error)
        notify(serverTextKey(saved.mail_error) ?? 'app.server.message_mail_retrying', { type: 'warning' });
      // An internal note is kept, not sent: its toast says so.
      else if (mode === 'internal_note') notify('app.notifications.note_saved', { type: 'success' });
      else notify('app.notifications.message_sent', { type: 'success' });
      setHtml('');
      setFiles([]);
      setUploadedIds([]);
      setFormKey((k) => k + 1);
      onSent();
    } catch (error) {
      // SPEC 8: loading ends and the text stays for another try.
      notifyError(error);
      const errors = (error as { status?: number; body?: { errors?: Record<string, unknown> } }).body?.errors;
      if ((error as { status?: number }).status === 422 && errors) {
        setRefused(
          Object.fromEntries(
            Object.entries(errors).filter((e): e is [string, string] => typeof e[1] === 'string'),
          ),
        );
      }
    } finally {
      setSending(null);
    }
  };

  const busy = sending !== null || uploading;
  const spinner = <CircularProgress size={16} color="inherit" aria-hidden="true" />;

  return (
    <Box
      component="section"
      ref={section}
      aria-labelledby={headingId}
      sx={{ mt: 2 }}
      data-testid="message-form"
    >
      <Typography id={headingId} variant="h6" component="h3" sx={{ mb: 1 }}>
        {translate('app.messages.new')}
      </Typography>
      <Suspense fallback={<Box sx={{ height: EDITOR_FRAME_HEIGHT }} />}>
        <MessageEditor
          key={formKey}
          label={translate('app.messages.placeholder')}
          onChange={setHtml}
          onImageUploaded={(id) => setUploadedIds((ids) => [...ids, id])}
          onBusyChange={setUploading}
          disabled={sending !== null}
          mentions={mentions}
          editorRef={(e) => {
            editor.current = e;
          }}
        />
      </Suspense>
      {Object.entries(refused)
        .filter(([field]) => !FILE_FIELD.test(field))
        .map(([field, text]) => (
          <RefusedLines key={field} text={text} />
        ))}
      {!portal && mentions && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
          {translate('app.messages.mention_hint')}
        </Typography>
      )}
      {files.length > 0 && (
        <Box
          component="ul"
          aria-label={translate('app.messages.attachments')}
          sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, listStyle: 'none', p: 0, m: 0, mt: 1 }}
        >
          {files.map((file, i) => (
            <Box component="li" key={`${file.name}-${i}`}>
              <Box
                sx={{
                  display: 'inline-flex',
                  alignItems: 'center',
                  gap: 0.5,
                  pl: 1.5,
                  border: 1,
                  borderColor: refused[`file[${i}]`] ? 'error.main' : 'divider',
                  borderRadius: 4,
                }}
              >
                <FileIcon attachment={{ id: i, name: file.name }} />
                <span>{file.name}</span>
                <IconButton
                  size="small"
                  aria-label={translate('app.messages.remove_attachment', { name: file.name })}
                  onClick={() => {
                    setFiles((list) => list.filter((_, j) => j !== i));
                    // The lines named the files by their place in the form: that place has changed.
                    setRefused({});
                  }}
                >
                  <Close fontSize="small" />
                </IconButton>
              </Box>
              {refused[`file[${i}]`] && <RefusedLines text={refused[`file[${i}]`]!} />}
            </Box>
          ))}
        </Box>
      )}
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1}
        sx={{ mt: 1.5, alignItems: { sm: 'center' } }}
      >
        <Button
          variant="outlined"
          startIcon={<AttachFile />}
          disabled={busy}
          onClick={() => fileInput.current?.click()}
        >
          {translate('app.messages.attach')}
        </Button>
        {!portal && placeholders && (
          <StandardAnswerPicker
            values={placeholders}
            disabled={busy}
            onPick={(answer) => {
              const e = editor.current;
              if (!e || e.isDestroyed) return;
              // At the cursor (the editor keeps its selection while the dialog is open), else at the end.
              e.chain().focus().insertContent(answer).run();
            }}
          />
        )}
        {!portal && (
          <ArticleLinkPicker
            disabled={busy}
            onPick={(link) => {
              const e = editor.current;
              if (!e || e.isDestroyed) return;
              e.chain().focus().insertContent(link).run();
            }}
          />
        )}
        <input
          ref={fileInput}
          id={fileInputId}
          type="file"
          multiple
          hidden
          aria-label={translate('app.messages.attach')}
          data-testid="message-files"
          onChange={(e) => {
            const chosen = Array.from(e.target.files ?? []);
            e.target.value = '';
            setFiles((list) => [...list, ...chosen]);
          }}
        />
        <Box sx={{ flexGrow: 1 }} />
        {portal ? (
          <Button
            variant="contained"
            startIcon={sending === 'portal' ? spinner : <Send />}
            disabled={busy || empty}
            onClick={() => void submit('portal')}
          >
            {translate('app.messages.send')}
          </Button>
        ) : (
          <>
            <Button
              variant={noteFirst ? 'contained' : 'outlined'}
              aria-keyshortcuts="n"
              startIcon={sending === 'internal_note' ? spinner : <NoteAdd />}
              disabled={busy || empty}
              onClick={() => void submit('internal_note')}
            >
              {translate('app.messages.save_internal_note')}
            </Button>
            {canSend && (
              <Button
                variant={noteFirst ? 'outlined' : 'contained'}
                aria-keyshortcuts="r"
                startIcon={sending === 'send_to_client' ? spinner : <Send />}
                disabled={busy || empty}
                onClick={() => void submit('send_to_client')}
              >
                {translate('app.messages.send_to_client')}
              </Button>
            )}
          </>
        )}
      </Stack>
    </Box>
  );
}
