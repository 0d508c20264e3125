/**
 * Every attachment row a caller reads carries `url`: the address of its file with a download token
 * for that caller (server/files/signed-urls.ts), so the apps can use it in `<img>` and links.
 */
import { signedFileUrl, signingKey } from '../../files/signed-urls.ts';
import type { ResourceHooks } from '../hook-contract.ts';
import { audienceOf } from '../messages/present.ts';

export const attachmentHooks: ResourceHooks = {
  async present(rows, { db, auth }) {
    const audience = audienceOf(auth);
    if (!audience) return;
    const key = await signingKey(db);
    for (const row of rows) {
      if (typeof row.id === 'number') row.url = signedFileUrl(key, auth.tenantId, row.id, audience);
    }
  },
};
