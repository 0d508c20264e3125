import { useEffect, useState } from 'react';
import { Button, CircularProgress } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { AppKind } from '../custom/appKind.ts';

/** Where the callback page goes after the sign-in: the page the login was asked for (issue 38). */
export const SSO_NEXT_KEY = 'app.sso.next';

interface Provider {
  id: number;
  name: string;
}

/** GET /api/auth/sso/providers: the tenant's OpenID providers for this app, names only. */
function useProviders(kind: AppKind): Provider[] {
  const [providers, setProviders] = useState<Provider[]>([]);
  useEffect(() => {
    let live = true;
    fetch(`/api/auth/sso/providers?app=${kind}`, { headers: { accept: 'application/json' } })
      .then((res) => (res.ok ? (res.json() as Promise<{ data: Provider[] }>) : undefined))
      .then((body) => live && body && setProviders(body.data))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [kind]);
  return providers;
}

/**
 * 'Sign in with <name>' per single sign-on provider of the tenant for this app. A click asks the server to
 * start the sign-in (it keeps state, nonce and PKCE verifier, and binds them to this browser by a cookie)
 * and follows the provider's address it answers; the provider sends the browser back to /sso/callback.
 */
export function SsoButtons({
  kind,
  next,
  onError,
}: {
  kind: AppKind;
  /** The app address to open after the sign-in. */
  next: string;
  /** The translation key of why the sign-in could not start. */
  onError: (key: string) => void;
}) {
  const translate = useTranslate();
  const providers = useProviders(kind);
  const [busy, setBusy] = useState<number | undefined>();

  async function start(id: number) {
    setBusy(id);
    try {
      const res = await fetch(`/api/auth/sso/providers/${id}/start`, {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/json' },
        body: JSON.stringify({ app: kind }),
      });
      if (!res.ok) throw new Error(`start answered ${res.status}`);
      const { authorize_url } = (await res.json()) as { authorize_url: string };
      try {
        sessionStorage.setItem(SSO_NEXT_KEY, next);
      } catch {
        /* storage disabled: the callback opens the app's start page */
      }
      window.location.assign(authorize_url);
    } catch {
      setBusy(undefined);
      onError('app.auth.sso_start_failed');
    }
  }

  return providers.map((p) => (
    <Button
      key={p.id}
      variant="outlined"
      disabled={busy !== undefined}
      startIcon={busy === p.id ? <CircularProgress size={16} /> : undefined}
      onClick={() => void start(p.id)}
    >
      {translate('app.auth.sign_in_with', { name: p.name })}
    </Button>
  ));
}
