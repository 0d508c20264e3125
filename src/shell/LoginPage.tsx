import { useEffect, useState, type FormEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  CircularProgress,
  Link,
  TextField,
  Typography,
} from '@mui/material';
import { useBasename, useLogin, useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { useAppKind } from '../custom/appKind.ts';
import { LocaleSwitcher } from './LocaleSwitcher.tsx';
import { useSystemStatus } from './systemStatus.ts';
import { DocumentTitle } from './DocumentTitle.tsx';
import { takeFlash } from './flash.ts';
import { BAD_CREDENTIALS_MESSAGE } from '../authProvider/index.ts';

interface SsoAnswer {
  enabled: boolean;
  authorize_url?: string;
}

/** GET /api/auth/sso: where 'Sign in with Microsoft' goes, when single sign-on is configured. */
function useSso(enabled: boolean): SsoAnswer | undefined {
  const [answer, setAnswer] = useState<SsoAnswer | undefined>();
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    fetch('/api/auth/sso', { headers: { accept: 'application/json' } })
      .then((res) => (res.ok ? (res.json() as Promise<SsoAnswer>) : undefined))
      .then((body) => live && setAnswer(body))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [enabled]);
  return answer;
}

/** Sign-in with e-mail and password; the server's message (wrong password, too many attempts) is shown as is. */
/**
 * Why a login failed, in the user's language: wrong credentials (422), too many attempts (429, with the
 * minutes the server names), else the server's own message.
 */
export function loginFailure(error: unknown, translate: (key: string, options?: object) => string): string {
  const { status, message } = (error ?? {}) as { status?: number; message?: string };
  if (status === 422 && message === BAD_CREDENTIALS_MESSAGE) return translate('app.auth.invalid_credentials');
  if (status === 429) {
    const minutes = Number(/(\d+) minute/.exec(message ?? '')?.[1] ?? 1);
    return translate('app.auth.too_many_attempts', { smart_count: minutes });
  }
  return message || translate('ra.auth.sign_in_error');
}

export function LoginPage() {
  const translate = useTranslate();
  const login = useLogin();
  const kind = useAppKind();
  const status = useSystemStatus();
  const basename = useBasename();
  // The portal offers a password reset and, when configured, Microsoft single sign-on (SPEC 2).
  const sso = useSso(kind === 'portal');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>(() => {
    const flash = takeFlash();
    return flash ? translate(flash, { _: flash }) : undefined;
  });
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await login({ username: email, password });
    } catch (e) {
      setError(loginFailure(e, translate));
      setBusy(false);
    }
  }

  const heading =
    kind === 'portal'
      ? translate('app.auth.portal_title', { tenant: status?.tenant_name ?? '' })
      : translate('app.auth.back_office_title');
  return (
    <Box
      component="main"
      sx={{
        minHeight: '100vh',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        bgcolor: 'grey.100',
        p: 2,
      }}
    >
      <DocumentTitle section={translate('app.auth.title')} />
      <Card sx={{ width: '100%', maxWidth: 400 }}>
        <CardContent
          component="form"
          onSubmit={submit}
          noValidate
          sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}
        >
          <Typography variant="h5" component="h1">
            {heading}
          </Typography>
          {error && (
            <Alert severity="error" role="alert">
              {error}
            </Alert>
          )}
          <TextField
            label={translate('app.auth.email')}
            type="email"
            name="username"
            autoComplete="username"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            required
            autoFocus
          />
          <TextField
            label={translate('app.auth.password')}
            type="password"
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            required
          />
          <Button
            type="submit"
            variant="contained"
            disabled={busy || !email || !password}
            startIcon={busy ? <CircularProgress size={16} /> : undefined}
          >
            {translate('app.auth.sign_in')}
          </Button>
          {sso?.enabled && sso.authorize_url && (
            <Button variant="outlined" href={sso.authorize_url}>
              {translate('app.auth.sign_in_sso')}
            </Button>
          )}
          {kind === 'portal' && (
            <Link component={RouterLink} to={`${basename}/password-reset`}>
              {translate('app.auth.forgot_password')}
            </Link>
          )}
          <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
            <LocaleSwitcher />
          </Box>
        </CardContent>
      </Card>
    </Box>
  );
}
