/**
 * Attachment calls (SPEC 7, issue 5):
 *
 * - `POST /api/attachments` multipart {file, is_embedded?, message_id?} -> 201 {id, url, name,
 *   extension, size, mime_type, is_embedded, message_id}: an upload, usually an inline image of the
 *   editor before its message exists. Replaces the generic JSON create: an attachment is a file.
 * - `GET /api/attachments/{id}/file` -> the file, to whoever may see it (attachments/access.ts),
 *   either with the bearer token or with the `token` of the address an attachment's `url` holds.
 */
import multipart from '@fastify/multipart';
import type { FastifyReply } from 'fastify';
import { fileStoreFor, type FileStore } from '../../files/store.ts';
import { fileHeaders, UNCOMPRESSED } from '../../files/serve.ts';
import { signedFileUrl, signingKey, signingKeys, verifyToken } from '../../files/signed-urls.ts';
import { discard, multipartLimits, readMultipart, type UploadLimits } from '../../files/upload.ts';
import { baseFieldName } from '../../http/form-values.ts';
import { formValues, validForm } from '../../http/form-body.ts';
import { validating } from '../../http/route-validation.ts';
import { HttpError, notFound, ValidationError } from '../../http/errors.ts';
import { BodyValidation } from '../../schema/validate.ts';
import type { ActionPlugin } from '../action-contract.ts';
import { authorize, parseId } from '../plugin.ts';
import { findRecord, type Deps } from '../repository.ts';
import { audienceOf } from '../messages/present.ts';
import { attachmentFor, attachmentForLink, type StoredAttachment } from './access.ts';
import { insertAttachments } from './rows.ts';
import { FILE_SCHEMA, UPLOAD_FORM, UPLOAD_SCHEMA } from './openapi.ts';
import { serverText } from '../../../common/server-texts.ts';

type IdParams = { Params: { id: string }; Querystring: { token?: string } };

const idParams = {
  type: 'object',
  properties: { id: { type: 'string', maxLength: 20 } },
  required: ['id'],
} as const;

async function sendFile(reply: FastifyReply, store: FileStore, attachment: StoredAttachment) {
  const file = await store.open(attachment.path);
  if (!file) throw new HttpError(404, 'The file of this attachment is no longer available.');
  return reply.headers(fileHeaders({ ...attachment, size: file.size })).send(file.stream);
}

export const attachmentActions: ActionPlugin = async (app, { db, registry, config }) => {
  const attachments = registry.require('attachments');
  const messages = registry.require('messages');
  const deps: Deps = { db, registry, validation: new BodyValidation() };
  const store = fileStoreFor(config, db);
  const limits: UploadLimits = { maxBytes: config.attachmentMaxBytes, maxFiles: 1 };
  await app.register(multipart, { limits: multipartLimits(limits), throwFileSizeLimit: true });

  const route = validating(UPLOAD_SCHEMA);
  app.post('/api/attachments', route, async (request, reply) => {
    const auth = await authorize(request, attachments, 'store');
    // Not a form at all: no schema of the route is for it (the content type is not a value).
    if (!request.isMultipart()) {
      throw new ValidationError({
        file: ['The file must be sent as multipart/form-data in the field file.'],
      });
    }
    const form = await readMultipart(request, store, limits, (field) => baseFieldName(field) === 'file');
    try {
      const { values, byHand } = formValues(UPLOAD_FORM, form);
      validForm(request, values, byHand);
      const upload = form.files[0]!;
      const embedded = values.is_embedded === true;
      const messageId = (values.message_id as number | null | undefined) ?? null;

      if (typeof messageId === 'number') {
        // The message must be one the caller sees; a client adds files to their own messages only.
        const message = await findRecord(deps, auth, messages, messageId);
        if (auth.kind !== 'operator' && message.actor_id !== auth.userId) {
          throw new ValidationError({ message_id: [serverText('files_own_messages')] });
        }
      }
      const [id] = await insertAttachments(db, [upload], {
        tenantId: auth.tenantId,
        userId: auth.userId,
        messageId,
        embedded,
      });
      const audience = audienceOf(auth)!;
      reply.status(201);
      return {
        id,
        url: signedFileUrl(await signingKey(db), auth.tenantId, id!, audience),
        name: upload.name,
        extension: upload.extension,
        size: upload.size,
        mime_type: upload.mime,
        is_embedded: embedded,
        message_id: messageId,
      };
    } catch (error) {
      await discard(store, form.files);
      throw error;
    }
  });

  app.get<IdParams>(
    '/api/attachments/:id/file',
    {
      // Validated by Fastify, as before: the token's length is checked before any work.
      schema: { ...FILE_SCHEMA, params: idParams },
      ...UNCOMPRESSED,
    },
    async (request, reply) => {
      const id = parseId(request.params.id);
      const token = request.query.token;
      // The bearer token wins; a link's token is for what cannot send one (an <img>, a download).
      if (request.headers.authorization || !token) {
        const auth = await authorize(request, attachments, 'show');
        return sendFile(reply, store, await attachmentFor(deps, auth, id));
      }
      const tenantId = request.tenant.id;
      const audience = await verifyToken(signingKeys(db), tenantId, id, token);
      if (!audience) throw notFound();
      return sendFile(reply, store, await attachmentForLink(deps, tenantId, id, audience));
    },
  );
};
