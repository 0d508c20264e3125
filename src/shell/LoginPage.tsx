import { useEffect, useState, type FormEvent } from 'react';
import { Alert, Button, CircularProgress, Link, TextField } from '@mui/material';
import { useBasename, useLogin, useTranslate } from 'react-admin';
import { Link as RouterLink, Navigate, useLocation } from 'react-router-dom';
import { useAppKind } from '../custom/appKind.ts';
import { PublicPage } from './PublicPage.tsx';
import { useSystemStatus } from './systemStatus.ts';
import { forgetFlash, loginPageLeft, peekFlash } from './flash.ts';
import {
  BAD_CREDENTIALS_MESSAGE,
  LOGGED_IN_ELSEWHERE_KEY,
  MULTIPLE_SESSIONS_MESSAGE,
} from './errorCatalogue.ts';
import { tooManyText } from '../authProvider/wait.ts';
import { afterLoginAddress } from './returnTo.ts';
import { preloadList } from '../resources/index.tsx';
import { TwoFactorNeeded } from '../authProvider/index.ts';
import { TwoFactorStep } from './TwoFactorStep.tsx';
import { SsoButtons } from './SsoButtons.tsx';

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

/**
 * The back office's first run (issue 32): while the installation has no tenant, GET /api/setup says
 * so and the login page gives way to the setup page. Any failure leaves the login page as it is.
 */
function useFirstRun(enabled: boolean): boolean {
  const [needed, setNeeded] = useState(false);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    fetch('/api/setup', { headers: { accept: 'application/json' } })
      .then((res) => (res.ok ? (res.json() as Promise<{ needed: boolean }>) : undefined))
      .then((body) => live && setNeeded(body?.needed === true))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [enabled]);
  return needed;
}

/**
 * Why a login failed, in the user's language, never in the server's English: wrong credentials (422),
 * too many attempts (429, with the seconds or minutes the server names), logged in elsewhere (SPEC 8),
 * no answer at all (network), else that signing in failed.
 */
export function loginFailure(error: unknown, translate: (key: string, options?: object) => string): string {
  const { status, message } = (error ?? {}) as { status?: unknown; message?: string };
  if (status === 422 && message === BAD_CREDENTIALS_MESSAGE) return translate('app.auth.invalid_credentials');
  if (status === 429) return tooManyText('app.auth.too_many_attempts', message, translate);
  if (message === MULTIPLE_SESSIONS_MESSAGE) return translate(LOGGED_IN_ELSEWHERE_KEY);
  // fetch rejects with a TypeError, no status, when the server cannot be reached.
  if (error instanceof TypeError) return translate('app.errors.network');
  return translate('ra.auth.sign_in_error');
}

type Failure = { flash: string } | { error: unknown };

/**
 * Sign-in with e-mail and password. The form checks itself (no browser bubbles): an empty field says
 * '{field} is required' under it. A login returns to the page that was asked for (./returnTo.ts).
 */
export function LoginPage() {
  const translate = useTranslate();
  const login = useLogin();
  const kind = useAppKind();
  const status = useSystemStatus();
  const basename = useBasename();
  const location = useLocation();
  // The portal offers a password reset and, when configured, Microsoft single sign-on (SPEC 2).
  const sso = useSso(kind === 'portal');
  const firstRun = useFirstRun(kind === 'backoffice');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  // Why the last session ended (set before a full reload) or why this login failed; translated when
  // shown, so a change of language changes it too.
  const [failure, setFailure] = useState<Failure | undefined>(() => {
    const flash = peekFlash();
    return flash ? { flash } : undefined;
  });
  // Leaving the login page (a login, the reset page) forgets why the last session ended.
  useEffect(() => () => loginPageLeft(window.location.pathname), []);
  // A login opens a list most of the time: its screen downloads while the form is filled in.
  useEffect(() => preloadList(), []);
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  // A right password of a user with two-factor: the code step takes the page (./TwoFactorStep.tsx).
  const [secondStep, setSecondStep] = useState<TwoFactorNeeded>();
  const emailLabel = translate('app.auth.email');
  const passwordLabel = translate('app.auth.password');
  const missing = (value: string, field: string) =>
    submitted && !value.trim() ? translate('app.errors.required', { field }) : undefined;
  const emailError = missing(email, emailLabel);
  const passwordError = missing(password, passwordLabel);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (!email.trim() || !password.trim()) return;
    setBusy(true);
    setFailure(undefined);
    forgetFlash();
    try {
      await login(
        { username: email.trim(), password },
        afterLoginAddress(kind, location.search, location.state),
      );
    } catch (e) {
      if (e instanceof TwoFactorNeeded) setSecondStep(e);
      else setFailure({ error: e });
      setBusy(false);
    }
  }
  const error = !failure
    ? undefined
    : 'flash' in failure
      ? translate(failure.flash, { _: failure.flash })
      : loginFailure(failure.error, translate);

  if (firstRun) return <Navigate to="/setup" replace />;
  const heading =
    kind === 'portal'
      ? translate('app.auth.portal_title', { tenant: status?.tenant_name ?? '' })
      : translate('app.auth.back_office_title');
  if (secondStep)
    return (
      <PublicPage title={translate('app.auth.title')} heading={heading} maxWidth={400}>
        <TwoFactorStep
          challenge={secondStep.challenge}
          enrol={secondStep.enrol}
          address={afterLoginAddress(kind, location.search, location.state)}
          onBack={() => {
            setSecondStep(undefined);
            setPassword('');
          }}
        />
      </PublicPage>
    );
  return (
    <PublicPage title={translate('app.auth.title')} heading={heading} maxWidth={400} onSubmit={submit}>
      {error && (
        <Alert severity="error" role="alert">
          {error}
        </Alert>
      )}
      <TextField
        label={emailLabel}
        type="email"
        name="username"
        autoComplete="username"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        required
        error={!!emailError}
        helperText={emailError}
        autoFocus
      />
      <TextField
        label={passwordLabel}
        type="password"
        name="password"
        autoComplete="current-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        required
        error={!!passwordError}
        helperText={passwordError}
      />
      <Button
        type="submit"
        variant="contained"
        disabled={busy}
        startIcon={busy ? <CircularProgress size={16} /> : undefined}
      >
        {translate('app.auth.sign_in')}
      </Button>
      {sso?.enabled && sso.authorize_url && (
        <Button variant="outlined" href={sso.authorize_url}>
          {translate('app.auth.sign_in_sso')}
        </Button>
      )}
      <SsoButtons
        kind={kind}
        next={afterLoginAddress(kind, location.search, location.state)}
        onError={(key) => setFailure({ flash: key })}
      />
      {kind === 'portal' && (
        <Link component={RouterLink} to={`${basename}/password-reset`}>
          {translate('app.auth.forgot_password')}
        </Link>
      )}
    </PublicPage>
  );
}
