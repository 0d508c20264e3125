/**
 * The error catalogue on data provider calls (src/shell/errors.ts): the toast texts of SPEC 8 and a
 * 422 in the two renderings, the toast (message in bold, then the other lines) and the form's errors
 * (each field's lines under it), with the lines the apps know said in the user's language.
 */
import { HttpError } from 'ra-core';
import { describe, expect, it } from 'vitest';
import { createI18nProvider } from '../../src/i18n/index.ts';
import { messages } from '../../src/i18n/catalogue.ts';
import { SILENT, shapeError, translateLine, withErrorCatalogue } from '../../src/shell/errors.ts';
import { NETWORK_ERROR } from '../../src/dataProvider/http.ts';
import { judgeFile } from '../../server/files/kinds.ts';
import { tooLarge } from '../../server/files/upload.ts';
import { serverText } from '../../common/server-texts.ts';

const nl = createI18nProvider({ messages });
const translate = (key: string, options?: Record<string, unknown>) => nl.translate(key, options);

describe('shapeError', () => {
  it('says 5xx and no answer in the apps own words, and 403 and 404 not at all', () => {
    expect(shapeError(new HttpError('Server error.', 500, { message: 'Server error.' })).message).toBe(
      'app.errors.server',
    );
    expect(shapeError(new HttpError('The database cannot be reached.', 503, {})).message).toBe(
      'app.errors.unavailable',
    );
    expect(shapeError(new HttpError(NETWORK_ERROR, 0, null)).message).toBe('app.errors.network');
    expect(shapeError(new HttpError('Not found.', 404, {})).message).toBe(SILENT);
    expect(shapeError(new HttpError('This action is unauthorized.', 403, {})).message).toBe(SILENT);
    expect(shapeError(new HttpError('Too many attempts.', 429, {})).message).toBe('Too many attempts.');
  });

  it('leaves a cancelled request as it is', () => {
    const abort = new DOMException('aborted', 'AbortError');
    expect(shapeError(abort)).toBe(abort);
    expect(abort.message).toBe('aborted');
  });

  it('a 422: SPEC 5 min-length sentence with the field label, in bold alone, and under the field', () => {
    const line = 'The password must be at least 8 characters long.';
    const error = shapeError(
      new HttpError(line, 422, { message: line, errors: { password: [line] } }),
      'clients',
      translate,
    );
    // A trailing line break: the toast shows the message in bold even with no line under it.
    expect(error.message).toBe('Wachtwoord moet minimaal 8 tekens lang zijn.\n');
    expect(error.body.errors).toEqual({
      password: 'Wachtwoord moet minimaal 8 tekens lang zijn.',
      root: { serverError: 'Wachtwoord moet minimaal 8 tekens lang zijn.\n' },
    });
  });

  it('a 422 with several fields: the message, then every other line; each field its own lines', () => {
    const body = {
      message: 'The given data was invalid.',
      errors: {
        description: ['The description may not be longer than 500 characters.'],
        stage: ['Something the apps have no words for.', 'A second line.'],
      },
    };
    const error = shapeError(new HttpError(body.message, 422, body), 'tickets', translate);
    expect(error.message).toBe(
      [
        'The given data was invalid.',
        'Omschrijving mag niet langer zijn dan 500 tekens.',
        'Something the apps have no words for.',
        'A second line.',
      ].join('\n'),
    );
    expect(error.body.errors.stage).toBe('Something the apps have no words for.\nA second line.');
    expect(error.body.errors.description).toBe('Omschrijving mag niet langer zijn dan 500 tekens.');
  });

  it('is applied once: a shaped error passed on again keeps its texts', () => {
    const line = 'The first_name field is required.';
    const error = shapeError(
      new HttpError(line, 422, { message: line, errors: { first_name: [line] } }),
      'clients',
      translate,
    );
    expect(shapeError(error, 'clients', translate)).toBe(error);
    expect(error.message).toBe('Voornaam is verplicht\n');
  });
});

describe('translateLine', () => {
  it('translates a file verdict whatever field carried it, and leaves unknown lines alone', () => {
    expect(
      translateLine(
        'Files of type .exe are not allowed. Allowed are images, PDF, office documents, audio, video, archives, code and text files.',
        'file[0]',
        'messages',
        translate,
      ),
    ).toBe(
      'Bestanden van het type .exe zijn niet toegestaan. Toegestaan zijn afbeeldingen, pdf, kantoordocumenten, audio, video, archieven, code en tekstbestanden.',
    );
    expect(
      translateLine('The password must be at least 8 characters long.', 'other', 'clients', translate),
    ).toBe('The password must be at least 8 characters long.');
  });
});

describe('withErrorCatalogue', () => {
  it('shapes the rejection of every method with the resource it was called for', async () => {
    const line = 'The password must be at least 8 characters long.';
    const provider = withErrorCatalogue(
      {
        create: () =>
          Promise.reject(new HttpError(line, 422, { message: line, errors: { password: [line] } })),
      } as never,
      translate,
    ) as unknown as { create: (resource: string) => Promise<unknown> };
    await expect(provider.create('clients')).rejects.toMatchObject({
      message: 'Wachtwoord moet minimaal 8 tekens lang zijn.\n',
    });
  });
});

describe("an upload's refusal, as the server writes it, in the user's language", () => {
  const refusal = (name: string, content: string) => {
    const verdict = judgeFile(name, { head: Buffer.from(content), size: content.length, isText: true });
    if (verdict.ok) throw new Error(`${name} was accepted`);
    return verdict.message;
  };
  const refused = (status: number, message: string) =>
    shapeError(
      new HttpError(message, status, { message, errors: { file: [message] } }),
      'attachments',
      translate,
    ).message;

  it('a 422 on the file (the inline image of the message editor, an attachment) is translated', () => {
    const allowed =
      'Toegestaan zijn afbeeldingen, pdf, kantoordocumenten, audio, video, archieven, code en tekstbestanden.';
    expect(refused(422, refusal('kapot.png', 'dit is geen afbeelding'))).toBe(
      `De inhoud van het bestand past niet bij de extensie .png. ${allowed}\n`,
    );
    expect(refused(422, refusal('virus.exe', 'MZ'))).toBe(
      `Bestanden van het type .exe zijn niet toegestaan. ${allowed}\n`,
    );
    expect(refused(422, refusal('README', 'text'))).toBe(
      `Bestanden zonder extensie zijn niet toegestaan. ${allowed}\n`,
    );
    expect(refused(422, refusal('leeg.txt', ''))).toBe('Het bestand is leeg.\n');
  });

  it("a 413 (too large, too many files) is translated with the server's values", () => {
    const tooBig = tooLarge(20 * 1024 * 1024).message;
    expect(
      shapeError(new HttpError(tooBig, 413, { message: tooBig }), 'attachments', translate).message,
    ).toBe('Het bestand is te groot: de grens is 20 MB.');
    const many = 'At most 10 files can be sent at once.';
    expect(shapeError(new HttpError(many, 413, { message: many }), 'messages', translate).message).toBe(
      'Er kunnen hoogstens 10 bestanden tegelijk worden verstuurd.',
    );
  });

  it('a text the apps do not know is shown as the server wrote it', () => {
    const other = 'The form has too many fields.';
    expect(shapeError(new HttpError(other, 413, { message: other }), 'messages', translate).message).toBe(
      other,
    );
  });

  it("says the server's refusals in the user's language: an action, a field by its label, a record by its kind", () => {
    const ALREADY_CLOSED = serverText('ticket_closed_already');
    const closed = shapeError(
      new HttpError(ALREADY_CLOSED, 422, {
        message: ALREADY_CLOSED,
        errors: { status_id: [ALREADY_CLOSED] },
      }),
      'tickets',
      translate,
    );
    expect(closed.message).toBe('Dit ticket is al gesloten.\n');

    const inUse = serverText('record_in_use');
    expect(shapeError(new HttpError(inUse, 409, { message: inUse }), 'companies', translate).message).toBe(
      'Dit item wordt nog gebruikt door andere items.',
    );

    const taken = serverText('value_taken', { field: 'email' });
    const takenError = shapeError(
      new HttpError(taken, 422, { message: taken, errors: { email: [taken] } }),
      'clients',
      translate,
    );
    expect(takenError.body.errors.email).toBe(
      `${translate('resources.clients.fields.email')} is al in gebruik.`,
    );

    const onInvoice = serverText('line_invoiced_already', { resource: 'time registration', id: 12 });
    const invoiced = shapeError(
      new HttpError(onInvoice, 422, { message: onInvoice, errors: { 'ids.0': [onInvoice] } }),
      'time-registrations',
      translate,
    );
    expect(invoiced.message).toBe(
      `${translate('resources.time-registrations.name', { smart_count: 1 })} 12 staat al op een factuur.\n`,
    );
    expect(invoiced.message).not.toContain('time registration');
  });
});
