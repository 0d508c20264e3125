import { useEffect, useRef } from 'react';
import { CircularProgress, Typography } from '@mui/material';
import { useAuthProvider, useBasename, useTranslate } from 'react-admin';
import { useLocation, useNavigate } from 'react-router-dom';
import { setFlash } from '../../shell/flash.ts';
import { tooManyText } from '../../authProvider/wait.ts';
import { PublicPage } from '../../shell/PublicPage.tsx';
import { SSO_NEXT_KEY } from '../../shell/SsoButtons.tsx';
import { afterLoginAddress } from '../../shell/returnTo.ts';
import { useAppKind } from '../appKind.ts';

/** The page the login asked for (SsoButtons kept it), read once; else the app's start page. */
function takeNext(fallback: string): string {
  try {
    const next = sessionStorage.getItem(SSO_NEXT_KEY);
    sessionStorage.removeItem(SSO_NEXT_KEY);
    // Only an address of this app: what was stored is the login page's own afterLoginAddress.
    return next && next.startsWith('/') && !next.startsWith('//') ? next : fallback;
  } catch {
    return fallback;
  }
}

/**
 * /sso/callback of both apps (issue 38): the OpenID provider sends the browser here with `code`, `state`
 * and `iss` (or an `error`); the server checks them and signs in as a password login does. On failure
 * back to the login page, which says only that single sign-on failed (the server logs why).
 */
export default function OidcCallbackPage() {
  const translate = useTranslate();
  const basename = useBasename();
  const kind = useAppKind();
  const authProvider = useAuthProvider();
  const navigate = useNavigate();
  const { search } = useLocation();
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const next = takeNext(afterLoginAddress(kind, '', undefined));
    // The session is stored, then the app loads afresh at `next`: react-admin's state of this page (its
    // failed auth check before the sign-in) would otherwise sign the new session out at once.
    Promise.resolve(authProvider?.login({ ssoQuery: search }))
      .then(() => window.location.replace(next))
      .catch((error: unknown) => {
        const { status, message } = (error ?? {}) as { status?: number; message?: unknown };
        setFlash(
          status === 429 && typeof message === 'string'
            ? tooManyText('app.auth.too_many_attempts', message, translate)
            : 'app.auth.sso_failed',
        );
        navigate(`${basename}/login`, { replace: true });
      });
  }, [search, kind, basename, authProvider, navigate, translate]);

  return (
    <PublicPage title={translate('app.auth.sign_in_sso')}>
      <Typography role="status" sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <CircularProgress size={20} aria-hidden="true" />
        {translate('app.auth.sso_busy')}
      </Typography>
    </PublicPage>
  );
}
