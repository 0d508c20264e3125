import { useEffect, useRef } from 'react';
import { CircularProgress, Typography } from '@mui/material';
import { useBasename, useLogin, useTranslate } from 'react-admin';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { setFlash } from '../../shell/flash.ts';
import { tooManyText } from '../../authProvider/wait.ts';
import { PublicPage } from '../../shell/PublicPage.tsx';

/**
 * /msgraph/code/:code (SPEC 2): logs in with the code and the portal flag, then opens the tickets; on
 * failure back to login with the reason. Microsoft itself appends the code as `?code=`, so the page
 * also takes it from the query.
 */
export default function SsoCallbackPage() {
  const translate = useTranslate();
  const basename = useBasename();
  const login = useLogin();
  const navigate = useNavigate();
  const params = useParams();
  const [query] = useSearchParams();
  const code = params.code ?? query.get('code') ?? '';
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const fail = (error?: unknown) => {
      const status = (error as { status?: number } | undefined)?.status;
      const message = (error as { message?: unknown } | undefined)?.message;
      // Said in the user's language, never in the server's English: too many attempts with the wait the
      // server names, anything else (the server's 'Single sign-on failed.', a 5xx) that single sign-on failed.
      setFlash(
        status === 429 && typeof message === 'string'
          ? tooManyText('app.auth.too_many_attempts', message, translate)
          : 'app.auth.sso_failed',
      );
      navigate(`${basename}/login`, { replace: true });
    };
    if (!code) {
      fail();
      return;
    }
    login({ code }, `${basename}/tickets`).catch(fail);
  }, [code, basename, login, navigate, translate]);

  return (
    <PublicPage title={translate('app.auth.sign_in_sso')}>
      <Typography role="status" sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <CircularProgress size={20} aria-hidden="true" />
        {translate('app.auth.sso_busy')}
      </Typography>
    </PublicPage>
  );
}
