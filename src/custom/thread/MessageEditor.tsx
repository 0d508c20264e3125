/**
 * The message editor (issue 5, SPEC 8 and 9): rich text with bold, italic, lists, links and inline
 * images (pasted, dropped or chosen with a file), 310 px high by default, its change reported 300 ms
 * after the last keystroke. An inline image is uploaded first (POST /api/attachments, is_embedded) and
 * goes in with the address the server answers; a failed upload is cancelled (nothing is inserted), its
 * error shown, and loading ends. Operators may mention colleagues with '@' (`mentions`).
 *
 * Tiptap (ProseMirror) keeps text as text: typed markup is never parsed as HTML.
 */
import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import Image from '@tiptap/extension-image';
import Link from '@tiptap/extension-link';
import { Box, LinearProgress } from '@mui/material';
import FormatBold from '@mui/icons-material/FormatBold';
import FormatItalic from '@mui/icons-material/FormatItalic';
import FormatListBulleted from '@mui/icons-material/FormatListBulleted';
import FormatListNumbered from '@mui/icons-material/FormatListNumbered';
import InsertLink from '@mui/icons-material/InsertLink';
import InsertPhoto from '@mui/icons-material/InsertPhoto';
import { useDataProvider, useTranslate } from 'react-admin';
import type { ServiceDeskDataProvider } from '../../dataProvider/index.ts';
import { useNotifyError } from '../../shell/errors.ts';
import { mentionExtension, type MentionCandidate } from './mentions.tsx';
import { EDITOR_HEIGHT, EDITOR_TOOLBAR_HEIGHT } from './editorSize.ts';
import { LinkDialog, ToolButton, imageFiles } from './editorControls.tsx';

/** SPEC 9: the change debounce (the default height is in editorSize.ts, with the toolbar's). */
export const CHANGE_DEBOUNCE_MS = 300;

export interface MessageEditorProps {
  /** The HTML the editor starts with (read once, when it mounts). */
  initialHtml?: string;
  /** The editor's HTML, 300 ms after the last change. */
  onChange: (html: string) => void;
  /** An inline image was uploaded: its attachment id (linked to the message when it is saved). */
  onImageUploaded?: (id: number) => void;
  /** Uploads under way (the form waits for them before it sends). */
  onBusyChange?: (busy: boolean) => void;
  /** The accessible name of the text area. */
  label: string;
  disabled?: boolean;
  /** Operators to mention with '@'; none: no mentions. */
  mentions?: MentionCandidate[];
  height?: number;
  /** Receives the editor (null when it goes away); read it only after `onReady`. */
  editorRef?: (editor: Editor | null) => void;
  /** The editor is created and holds `initialHtml`, as it writes it back (`getHTML()`). */
  onReady?: (editor: Editor) => void;
}

interface Uploaded {
  id: number;
  url: string;
}

export default function MessageEditor({
  initialHtml = '',
  onChange,
  onImageUploaded,
  onBusyChange,
  label,
  disabled,
  mentions,
  height = EDITOR_HEIGHT,
  editorRef,
  onReady,
}: MessageEditorProps) {
  const translate = useTranslate();
  const notifyError = useNotifyError();
  const dataProvider = useDataProvider<ServiceDeskDataProvider>();
  const fileInput = useRef<HTMLInputElement>(null);
  const fileInputId = useId();
  const [uploads, setUploads] = useState(0);
  const [linkOpen, setLinkOpen] = useState(false);
  const changeTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const uploadControllers = useRef(new Set<AbortController>());
  const latest = useRef({ onChange, onImageUploaded, onBusyChange, onReady });
  const mentionList = useRef<MentionCandidate[]>(mentions ?? []);
  useLayoutEffect(() => {
    latest.current = { onChange, onImageUploaded, onBusyChange, onReady };
    mentionList.current = mentions ?? [];
  });
  const withMentions = !!mentions;

  useEffect(() => latest.current.onBusyChange?.(uploads > 0), [uploads]);

  /** POST /api/attachments (is_embedded); null when it failed (the error is shown, nothing inserted). */
  async function upload(file: File): Promise<Uploaded | null> {
    const form = new FormData();
    form.append('file', file, file.name);
    form.append('is_embedded', '1');
    const controller = new AbortController();
    uploadControllers.current.add(controller);
    setUploads((n) => n + 1);
    try {
      const answer = await dataProvider.createMultipart<Uploaded>('attachments', form, {
        signal: controller.signal,
      });
      latest.current.onImageUploaded?.(answer.id);
      return answer;
    } catch (error) {
      // The data provider's error catalogue has put the refusal in the user's language.
      if (!controller.signal.aborted) notifyError(error);
      return null;
    } finally {
      uploadControllers.current.delete(controller);
      setUploads((n) => n - 1);
    }
  }

  const insertImages = async (editor: Editor, files: File[], at?: number) => {
    for (const file of files) {
      const uploaded = await upload(file);
      if (!uploaded || editor.isDestroyed) continue;
      const image = { type: 'image', attrs: { src: uploaded.url, alt: file.name } };
      if (at !== undefined) editor.chain().insertContentAt(at, image).run();
      else editor.chain().focus().insertContent(image).run();
    }
  };

  const editorInstance = useRef<Editor | null>(null);
  const extensions = useMemo(
    () => [
      StarterKit.configure({ link: false, underline: false }),
      Link.configure({ openOnClick: false, autolink: true, defaultProtocol: 'https' }),
      Image.configure({ inline: false, allowBase64: false }),
      // The extension reads the ref when '@' is typed, never during render.
      // eslint-disable-next-line react-hooks/refs
      ...(withMentions ? [mentionExtension(mentionList)] : []),
    ],
    [withMentions],
  );

  const editor = useEditor(
    {
      extensions,
      content: initialHtml,
      editable: !disabled,
      editorProps: {
        attributes: {
          role: 'textbox',
          'aria-multiline': 'true',
          'aria-label': label,
          class: 'message-editor-content',
        },
        handlePaste: (_view, event) => {
          const files = imageFiles(event.clipboardData?.files);
          if (files.length === 0 || !editorInstance.current) return false;
          event.preventDefault();
          void insertImages(editorInstance.current, files);
          return true;
        },
        handleDrop: (view, event) => {
          const files = imageFiles((event as DragEvent).dataTransfer?.files);
          if (files.length === 0 || !editorInstance.current) return false;
          event.preventDefault();
          const pos = view.posAtCoords({ left: event.clientX, top: event.clientY })?.pos;
          void insertImages(editorInstance.current, files, pos);
          return true;
        },
      },
      onCreate: ({ editor: e }) => latest.current.onReady?.(e),
      onUpdate: ({ editor: e }) => {
        clearTimeout(changeTimer.current);
        changeTimer.current = setTimeout(() => latest.current.onChange(e.getHTML()), CHANGE_DEBOUNCE_MS);
      },
    },
    [extensions],
  );
  useLayoutEffect(() => {
    editorInstance.current = editor;
  }, [editor]);

  useEffect(() => {
    editorRef?.(editor);
    return () => editorRef?.(null);
  }, [editor, editorRef]);

  useEffect(() => {
    editor?.setEditable(!disabled);
  }, [editor, disabled]);

  // Leaving the form: no late change, and uploads still under way are cancelled.
  useEffect(() => {
    const controllers = uploadControllers.current;
    return () => {
      clearTimeout(changeTimer.current);
      controllers.forEach((c) => c.abort());
    };
  }, []);

  const active = useEditorState({
    editor,
    selector: ({ editor: e }) =>
      e
        ? {
            bold: e.isActive('bold'),
            italic: e.isActive('italic'),
            bulletList: e.isActive('bulletList'),
            orderedList: e.isActive('orderedList'),
            link: e.isActive('link'),
            href: (e.getAttributes('link').href as string | undefined) ?? '',
          }
        : null,
  });

  const run = (command: (e: Editor) => void) => () => {
    if (editor) command(editor);
  };

  const saveLink = (href: string) => {
    setLinkOpen(false);
    if (!editor) return;
    const chain = editor.chain().focus().extendMarkRange('link');
    if (href.trim() === '') chain.unsetLink().run();
    else chain.setLink({ href: href.trim() }).run();
  };

  const off = disabled || !editor;
  return (
    <Box
      sx={{
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
        '&:focus-within': { borderColor: 'primary.main' },
      }}
    >
      <Box
        role="toolbar"
        aria-label={translate('app.messages.toolbar')}
        sx={{
          display: 'flex',
          flexWrap: 'wrap',
          gap: 0.5,
          p: 0.5,
          borderBottom: 1,
          borderColor: 'divider',
          boxSizing: 'border-box',
          minHeight: EDITOR_TOOLBAR_HEIGHT,
        }}
      >
        <ToolButton
          label={translate('app.messages.bold')}
          active={active?.bold ?? false}
          disabled={off}
          onClick={run((e) => e.chain().focus().toggleBold().run())}
        >
          <FormatBold fontSize="small" />
        </ToolButton>
        <ToolButton
          label={translate('app.messages.italic')}
          active={active?.italic ?? false}
          disabled={off}
          onClick={run((e) => e.chain().focus().toggleItalic().run())}
        >
          <FormatItalic fontSize="small" />
        </ToolButton>
        <ToolButton
          label={translate('app.messages.bullet_list')}
          active={active?.bulletList ?? false}
          disabled={off}
          onClick={run((e) => e.chain().focus().toggleBulletList().run())}
        >
          <FormatListBulleted fontSize="small" />
        </ToolButton>
        <ToolButton
          label={translate('app.messages.ordered_list')}
          active={active?.orderedList ?? false}
          disabled={off}
          onClick={run((e) => e.chain().focus().toggleOrderedList().run())}
        >
          <FormatListNumbered fontSize="small" />
        </ToolButton>
        <ToolButton
          label={translate('app.messages.link')}
          active={active?.link ?? false}
          disabled={off}
          onClick={() => setLinkOpen(true)}
        >
          <InsertLink fontSize="small" />
        </ToolButton>
        <ToolButton
          label={translate('app.messages.image')}
          disabled={off}
          onClick={() => fileInput.current?.click()}
        >
          <InsertPhoto fontSize="small" />
        </ToolButton>
        <input
          ref={fileInput}
          id={fileInputId}
          type="file"
          accept="image/png,image/jpeg,image/gif,image/webp"
          hidden
          aria-label={translate('app.messages.image')}
          data-testid="editor-image-input"
          onChange={(e) => {
            const files = imageFiles(e.target.files);
            e.target.value = '';
            if (editor && files.length) void insertImages(editor, files);
          }}
        />
      </Box>
      {uploads > 0 && <LinearProgress aria-label={translate('app.messages.uploading')} />}
      <Box
        sx={{
          height,
          minHeight: 120,
          overflowY: 'auto',
          resize: 'vertical',
          px: 1.5,
          cursor: 'text',
          '& .message-editor-content': { outline: 'none', minHeight: '100%', py: 1 },
          '& .message-editor-content p': { my: 0.5 },
          '& img': { maxWidth: '100%', height: 'auto' },
          '& .mention': { color: 'primary.dark', fontWeight: 500 },
        }}
        onClick={() => editor?.chain().focus().run()}
      >
        <EditorContent editor={editor} />
      </Box>
      <LinkDialog
        key={linkOpen ? 'open' : 'closed'}
        open={linkOpen}
        initial={active?.href ?? ''}
        onClose={() => setLinkOpen(false)}
        onSave={saveLink}
      />
    </Box>
  );
}
