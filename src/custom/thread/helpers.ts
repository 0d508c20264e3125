/**
 * What the message thread computes without React: how a message is shown (sent, received, internal
 * note), file kinds by extension for the attachment icons (SPEC 9), an author's initials, the deep link
 * hash, whether the 'send' button shows (SPEC 5), the create form's multipart body (SPEC 7), and a last
 * clean-up of message HTML before it is put in the page (the server sanitises; this is a second fence).
 */
import type { RaRecord } from 'react-admin';

export interface Actor {
  id: number;
  /** 0 for a client, 1 or 2 for an operator's line. */
  is_operator: number;
  full_name: string | null;
  first_name?: string | null;
  last_name?: string | null;
  acronym?: string | null;
  gravatar?: string | null;
}

export interface Attachment {
  id: number;
  name: string;
  extension?: string | null;
  size?: number | null;
  mime_type?: string | null;
  is_embedded?: boolean;
  url?: string;
}

export interface ThreadMessage extends RaRecord {
  message: string;
  type?: 'normal' | 'status-changed' | 'work-order-signed' | string;
  data?: { status?: { name?: string } } | null;
  is_from_client: boolean;
  visible_to_client: boolean;
  original_email_from?: string | null;
  created_at: string;
  /** When its text was last edited (issue 18): the thread marks it "edited". */
  edited_at?: string | null;
  actor?: Actor | null;
  attachments?: Attachment[];
  /** Operators only: set once the outbox gave the message's mail up (the server's English words). */
  mail_error?: string | null;
  /** Operators only: whether a mail's sender was proven (issue 31), and what the check found. */
  sender_check?: 'verified' | 'unverified' | 'confirmed' | 'rejected' | null;
  sender_check_note?: string | null;
}

/** SPEC 2: a sent message (from the client), a received one (to the client), or an internal note. */
export type MessageKind = 'sent' | 'received' | 'internal_note';

export function messageKind(
  message: Pick<ThreadMessage, 'is_from_client' | 'visible_to_client'>,
): MessageKind {
  if (!message.visible_to_client) return 'internal_note';
  return message.is_from_client ? 'sent' : 'received';
}

/** SPEC 9: the kinds of file that get their own icon. */
export type FileKind = 'image' | 'pdf' | 'office' | 'audio' | 'video' | 'archive' | 'code' | 'text';

/**
 * Extensions by kind: the same table as the server's allowed kinds (server/files/kinds.ts; a unit test
 * keeps the two equal). Anything else gets the generic file icon.
 */
const KIND_EXTENSIONS: Record<FileKind, string[]> = {
  image: ['png', 'jpg', 'jpeg', 'gif', 'webp', 'bmp', 'ico', 'tif', 'tiff', 'heic', 'svg'],
  pdf: ['pdf'],
  office: ['doc', 'dot', 'xls', 'ppt', 'msg', 'docx', 'xlsx', 'pptx', 'odt', 'ods', 'odp', 'rtf'],
  audio: ['mp3', 'wav', 'ogg', 'oga', 'flac', 'm4a', 'aac'],
  video: ['mp4', 'm4v', 'mov', 'webm', 'mkv', 'avi', 'mpg', 'mpeg', 'wmv'],
  archive: ['zip', 'rar', '7z', 'gz', 'tgz', 'bz2', 'xz', 'tar'],
  code: [
    'html',
    'htm',
    'css',
    'js',
    'ts',
    'json',
    'xml',
    'yml',
    'yaml',
    'sql',
    'sh',
    'ps1',
    'bat',
    'py',
    'php',
    'java',
    'c',
    'h',
    'cpp',
    'cs',
    'go',
    'rb',
  ],
  text: ['txt', 'log', 'md', 'csv', 'ini', 'conf', 'eml'],
};

export const FILE_KINDS: ReadonlyMap<string, FileKind> = new Map(
  (Object.entries(KIND_EXTENSIONS) as [FileKind, string[]][]).flatMap(([kind, exts]) =>
    exts.map((ext) => [ext, kind] as const),
  ),
);

/** The kind of a file by its extension (or its name), case-insensitive; null for other files. */
export function fileKind(extensionOrName: string | null | undefined): FileKind | null {
  if (!extensionOrName) return null;
  const dot = extensionOrName.lastIndexOf('.');
  const ext = (dot >= 0 ? extensionOrName.slice(dot + 1) : extensionOrName).toLowerCase();
  return FILE_KINDS.get(ext) ?? null;
}

/** The letters of an avatar without a picture: the acronym, else the initials of the name. */
export function actorInitials(actor: Actor | null | undefined): string {
  if (!actor) return '?';
  if (actor.acronym) return actor.acronym.slice(0, 3).toUpperCase();
  const words = [actor.first_name, actor.last_name].every(Boolean)
    ? [actor.first_name!, actor.last_name!]
    : (actor.full_name ?? '').split(/\s+/).filter(Boolean);
  const letters = words.map((w) => w[0]!.toUpperCase()).join('');
  return letters ? letters.slice(0, 3) : '?';
}

/** SPEC 2: a thread deep-links by `#message-{id}`. */
export const MESSAGE_ANCHOR = 'message-';

export function messageAnchor(id: RaRecord['id']): string {
  return `${MESSAGE_ANCHOR}${id}`;
}

/** The message id of a location hash ('#message-345' -> '345'); null for any other hash. */
export function messageIdFromHash(hash: string | null | undefined): string | null {
  const m = /^#?message-(\d+)$/.exec(hash ?? '');
  return m ? m[1]! : null;
}

/**
 * SPEC 5: the 'send' button (send to the client) appears only if the record is not a template and the
 * client has an e-mail address or the ticket has an original sender (the address it came in from).
 */
export function canSendToClient(
  record: RaRecord | undefined,
  messages: Pick<ThreadMessage, 'original_email_from'>[],
): boolean {
  if (!record || record.is_template) return false;
  const client = record.client as { email?: string | null } | null | undefined;
  if (client?.email) return true;
  return messages.some((m) => !!m.original_email_from);
}

/** The values of a new message; booleans and lists as the server's multipart form reads them. */
export interface NewMessage {
  message: string;
  morphable_type: string;
  morphable_id: RaRecord['id'];
  is_from_client: boolean;
  visible_to_client: boolean;
  description?: string | null;
  activity_id?: number | null;
  attachment_ids?: number[];
  /** Portal: 'send_from_portal' (SPEC 7). */
  action?: string;
  send_to_client?: boolean;
  to?: string[];
  cc?: string[];
  bcc?: string[];
  files?: File[];
}

/** SPEC 7, create message: a multipart form with `attachment_ids[]`, `to[]`… and the files as `file[n]`. */
export function messageFormData(values: NewMessage): FormData {
  const form = new FormData();
  const put = (name: string, value: unknown) => {
    if (value === undefined || value === null) return;
    form.append(name, typeof value === 'boolean' ? (value ? '1' : '0') : String(value));
  };
  put('message', values.message);
  put('morphable_type', values.morphable_type);
  put('morphable_id', values.morphable_id);
  put('is_from_client', values.is_from_client);
  put('visible_to_client', values.visible_to_client);
  put('description', values.description);
  put('activity_id', values.activity_id);
  put('action', values.action);
  put('send_to_client', values.send_to_client);
  for (const id of values.attachment_ids ?? []) put('attachment_ids[]', id);
  for (const list of ['to', 'cc', 'bcc'] as const) {
    for (const address of values[list] ?? []) put(`${list}[]`, address);
  }
  (values.files ?? []).forEach((file, i) => form.append(`file[${i}]`, file, file.name));
  return form;
}

/** Ids of our own inline images in an editor's HTML (`/api/attachments/{id}/file…`). */
export function embeddedAttachmentIds(html: string): number[] {
  const ids = new Set<number>();
  for (const m of html.matchAll(/src="\/api\/attachments\/(\d+)\/file[^"]*"/g)) ids.add(Number(m[1]));
  return [...ids];
}

/** True when an editor's HTML holds no text and no image (an empty paragraph is empty). */
export function isEmptyHtml(html: string): boolean {
  if (/<img\b/i.test(html)) return false;
  return (
    html
      .replace(/<[^>]*>/g, '')
      .replace(/&nbsp;/g, ' ')
      .trim() === ''
  );
}

const DROP_ELEMENTS = 'script, style, iframe, object, embed, link, meta, base, form, input, button, textarea';

/**
 * A second fence around message HTML (the server sanitises every message it stores): drops elements
 * that can run or load code, event handler attributes and script URLs. Parsed in an inert document, so
 * nothing in it runs or loads while it is cleaned.
 */
export function cleanMessageHtml(html: string): string {
  if (typeof DOMParser === 'undefined') return '';
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  doc.body.querySelectorAll(DROP_ELEMENTS).forEach((el) => el.remove());
  doc.body.querySelectorAll('*').forEach((el) => {
    for (const attr of Array.from(el.attributes)) {
      const name = attr.name.toLowerCase();
      // Browsers ignore blanks and control characters inside a URL's scheme ('java\tscript:').
      const value = Array.from(attr.value)
        .filter((c) => c.charCodeAt(0) > 0x20)
        .join('')
        .toLowerCase();
      if (name.startsWith('on') || name === 'srcdoc') el.removeAttribute(attr.name);
      else if (
        (name === 'href' || name === 'src' || name === 'xlink:href' || name === 'action') &&
        /^(javascript|vbscript|data):/.test(value) &&
        !(name === 'src' && /^data:image\/(png|jpe?g|gif|webp);/.test(value))
      )
        el.removeAttribute(attr.name);
    }
    if (el.tagName === 'A') {
      el.setAttribute('target', '_blank');
      el.setAttribute('rel', 'noopener noreferrer');
    }
  });
  return doc.body.innerHTML;
}
