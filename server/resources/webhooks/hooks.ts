/**
 * A webhook's URL is checked whenever it is saved (targets.ts: https, no credentials, no private or
 * loopback address literal unless the installation allows them), a 422 saying why; the delivery checks
 * it again after resolving the name. Setting `active` to true again enables a disabled webhook: its
 * failure count starts again and its waiting deliveries go out.
 */
import { ValidationError } from '../../http/errors.ts';
import type { ResourceHooks } from '../hook-contract.ts';
import { targetProblem } from './targets.ts';

/**
 * WEBHOOKS_ALLOW_PRIVATE of the process's app, set when its routes are registered (actions.ts), as the
 * mailbox key is (server/mail/inbound/secret.ts): hooks get no configuration. One app per process.
 */
let allowPrivate = false;
export function useAllowPrivate(allow: boolean): void {
  allowPrivate = allow;
}

function checkUrl(url: unknown): void {
  if (typeof url !== 'string') return;
  const problem = targetProblem(url, allowPrivate);
  if (problem) throw new ValidationError({ url: [problem] });
}

export const webhookHooks: ResourceHooks = {
  beforeStore(row) {
    checkUrl(row.url);
  },
  beforeUpdate(_id, changes) {
    checkUrl(changes.url);
    if (changes.active === true) {
      changes.failures = 0;
      changes.disabled_at = null;
      changes.disabled_reason = null;
    }
  },
};
