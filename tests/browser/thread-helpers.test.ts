// @vitest-environment jsdom
/**
 * The message thread's pure parts: how a message is shown, file kinds, initials, the deep link hash,
 * the 'send' rule of SPEC 5, the multipart body of SPEC 7 and the last clean-up of message HTML.
 */
import { describe, expect, it } from 'vitest';
import {
  actorInitials,
  canSendToClient,
  cleanMessageHtml,
  embeddedAttachmentIds,
  fileKind,
  isEmptyHtml,
  messageFormData,
  messageIdFromHash,
  messageKind,
} from '../../src/custom/thread/helpers.ts';
import { matchCandidates } from '../../src/custom/thread/mentions.tsx';

describe('messageKind (SPEC 2)', () => {
  it('sent from the client, received by the client, or an internal note', () => {
    expect(messageKind({ is_from_client: true, visible_to_client: true })).toBe('sent');
    expect(messageKind({ is_from_client: false, visible_to_client: true })).toBe('received');
    expect(messageKind({ is_from_client: false, visible_to_client: false })).toBe('internal_note');
  });
});

describe('fileKind (SPEC 9)', () => {
  it('reads an extension or a file name, in any case; null for other files', () => {
    expect(fileKind('PNG')).toBe('image');
    expect(fileKind('werkbon.pdf')).toBe('pdf');
    expect(fileKind('offerte.final.DOCX')).toBe('office');
    expect(fileKind('logs.tar')).toBe('archive');
    expect(fileKind('notitie.txt')).toBe('text');
    expect(fileKind('script.py')).toBe('code');
    expect(fileKind('opname.mp3')).toBe('audio');
    expect(fileKind('film.mp4')).toBe('video');
    expect(fileKind('program.exe')).toBeNull();
    expect(fileKind('')).toBeNull();
    expect(fileKind(null)).toBeNull();
  });
});

describe('actorInitials', () => {
  it('the acronym first, else the initials of first and last name, else of the full name', () => {
    expect(actorInitials({ id: 1, is_operator: 1, full_name: 'Daan Visser', acronym: 'dv' })).toBe('DV');
    expect(
      actorInitials({ id: 1, is_operator: 0, full_name: 'x', first_name: 'Pieter', last_name: 'Jansen' }),
    ).toBe('PJ');
    expect(actorInitials({ id: 1, is_operator: 0, full_name: 'Anna de Boer' })).toBe('ADB');
    expect(actorInitials({ id: 1, is_operator: 0, full_name: '' })).toBe('?');
    expect(actorInitials(null)).toBe('?');
  });
});

describe('messageIdFromHash', () => {
  it('reads #message-{id} only', () => {
    expect(messageIdFromHash('#message-345')).toBe('345');
    expect(messageIdFromHash('message-7')).toBe('7');
    expect(messageIdFromHash('#message-x')).toBeNull();
    expect(messageIdFromHash('#top')).toBeNull();
    expect(messageIdFromHash('')).toBeNull();
  });
});

describe("the 'send' button (SPEC 5)", () => {
  it('needs a record that is not a template, and a client e-mail or an original sender', () => {
    const withMail = { id: 1, is_template: false, client: { email: 'a@example.com' } };
    expect(canSendToClient(withMail, [])).toBe(true);
    expect(canSendToClient({ ...withMail, is_template: true }, [])).toBe(false);
    const noMail = { id: 1, is_template: false, client: { email: null } };
    expect(canSendToClient(noMail, [])).toBe(false);
    expect(canSendToClient(noMail, [{ original_email_from: null }])).toBe(false);
    expect(canSendToClient(noMail, [{ original_email_from: 'sender@example.com' }])).toBe(true);
    expect(canSendToClient({ id: 2 }, [])).toBe(false);
    expect(canSendToClient(undefined, [])).toBe(false);
  });
});

describe('messageFormData (SPEC 7)', () => {
  it('writes booleans as 1/0, lists with [] and the files as file[n]', () => {
    const a = new File(['a'], 'a.txt', { type: 'text/plain' });
    const b = new File(['b'], 'b.png', { type: 'image/png' });
    const form = messageFormData({
      message: '<p>Hoi</p>',
      morphable_type: 'ticket',
      morphable_id: 12,
      is_from_client: true,
      visible_to_client: true,
      action: 'send_from_portal',
      attachment_ids: [4, 5],
      to: ['x@example.com'],
      files: [a, b],
    });
    const entries = [...form.entries()].map(([k, v]) => [k, typeof v === 'string' ? v : (v as File).name]);
    expect(entries).toEqual([
      ['message', '<p>Hoi</p>'],
      ['morphable_type', 'ticket'],
      ['morphable_id', '12'],
      ['is_from_client', '1'],
      ['visible_to_client', '1'],
      ['action', 'send_from_portal'],
      ['attachment_ids[]', '4'],
      ['attachment_ids[]', '5'],
      ['to[]', 'x@example.com'],
      ['file[0]', 'a.txt'],
      ['file[1]', 'b.png'],
    ]);
  });
});

describe('editor HTML', () => {
  it('finds our inline images, with or without a link token', () => {
    expect(
      embeddedAttachmentIds(
        '<p><img src="/api/attachments/12/file?token=1.o.abc"><img src="/api/attachments/3/file"><img src="https://x/y.png"></p>',
      ),
    ).toEqual([12, 3]);
  });

  it('an empty paragraph is empty, an image is not', () => {
    expect(isEmptyHtml('<p></p>')).toBe(true);
    expect(isEmptyHtml('<p> &nbsp; </p>')).toBe(true);
    expect(isEmptyHtml('<p>a</p>')).toBe(false);
    expect(isEmptyHtml('<p><img src="/api/attachments/1/file"></p>')).toBe(false);
  });
});

describe('cleanMessageHtml', () => {
  it('drops scripts, event handlers and script URLs; keeps formatting, images and mentions', () => {
    const html = cleanMessageHtml(
      '<p onclick="x()"><strong>Vet</strong> <a href="java\tscript:alert(1)">a</a> <a href="https://example.com">b</a></p>' +
        '<script>window.__xss=1</script><img src="x" onerror="window.__xss=1">' +
        '<iframe src="https://example.com"></iframe><span class="mention" data-type="mention" data-id="2" data-label="Daan">@Daan</span>',
    );
    expect(html).not.toMatch(/onclick|onerror|script|iframe/i);
    expect(html).toContain('<strong>Vet</strong>');
    expect(html).toContain('<a>a</a>'.replace('<a>', '<a target="_blank" rel="noopener noreferrer">'));
    expect(html).toContain('href="https://example.com"');
    expect(html).toContain('<img src="x">');
    expect(html).toContain('data-label="Daan"');
  });
});

describe('mentions', () => {
  it('match a word start of the name, at most 8', () => {
    const people = [
      { id: 1, label: 'Daan Visser' },
      { id: 2, label: 'Sanne Bakker' },
      { id: 3, label: 'Bas de Vries' },
    ];
    expect(matchCandidates(people, 'v').map((p) => p.id)).toEqual([1, 3]);
    expect(matchCandidates(people, 'SAN').map((p) => p.id)).toEqual([2]);
    expect(matchCandidates(people, '')).toHaveLength(3);
    expect(matchCandidates(people, 'x')).toEqual([]);
  });
});
