import { useState, type FormEvent } from 'react';
import { Alert, Button, CircularProgress, Link, TextField } from '@mui/material';
import { useBasename, useTranslate } from 'react-admin';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { PublicPage } from '../../shell/PublicPage.tsx';
import { postAnonymous } from './PasswordResetRequestPage.tsx';
import { passwordRuleKey } from '../../authProvider/password-rules.ts';

/** The server's answer to a spent, replaced or expired link (server/auth/password-reset.ts). */
const RESET_LINK_INVALID_MESSAGE = 'This password reset link is invalid or has expired.';
/** The server's minimum (server/config.ts `passwordMinLength`); checked here first to save a round trip. */
export const PASSWORD_MIN_LENGTH = 8;

type FieldErrors = { password?: string; password_confirmation?: string };

/**
 * /password/reset/:token, the link of the reset e-mail: a new password twice. Too short or not the same
 * is said at once (SPEC 5's min-length message); the server's 422 (link spent or expired, …) is shown
 * as it answers, and success links to the login page.
 */
export default function PasswordResetPage() {
  const translate = useTranslate();
  const basename = useBasename();
  const { token = '' } = useParams();
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<{ message: string; lines: string[] } | undefined>();
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);

  function check(): FieldErrors {
    const found: FieldErrors = {};
    if ([...password].length < PASSWORD_MIN_LENGTH) {
      found.password = translate('app.errors.min_length', {
        subject: translate('app.auth.password_subject'),
        length: PASSWORD_MIN_LENGTH,
      });
    }
    if (confirmation !== password) found.password_confirmation = translate('app.auth.passwords_differ');
    return found;
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(undefined);
    const found = check();
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      const res = await postAnonymous('/api/auth/password/reset', {
        token,
        password,
        password_confirmation: confirmation,
      });
      if (res.status >= 200 && res.status < 300) {
        setDone(true);
        return;
      }
      const serverMessage = typeof res.body?.message === 'string' ? (res.body.message as string) : undefined;
      // A spent or expired link is the usual refusal: said in the user's language.
      if (serverMessage === RESET_LINK_INVALID_MESSAGE) {
        setFailure({ message: translate('app.auth.reset_link_invalid'), lines: [] });
        return;
      }
      const rule = passwordRuleKey(res.body?.errors);
      if (rule) {
        setErrors({ password: translate(rule) });
        return;
      }
      const message = serverMessage ?? translate('app.errors.generic');
      const fields = (res.body?.errors ?? {}) as Record<string, unknown>;
      const lines = Object.values(fields)
        .flatMap((v) => (Array.isArray(v) ? v.map(String) : [String(v)]))
        .filter((line) => line !== message);
      setFailure({ message, lines });
    } catch {
      setFailure({ message: translate('app.errors.network'), lines: [] });
    } finally {
      setBusy(false);
    }
  }

  const loginLink = (
    <Link component={RouterLink} to={`${basename}/login`}>
      {translate('app.auth.back_to_login')}
    </Link>
  );

  if (done) {
    return (
      <PublicPage title={translate('app.auth.reset_title')}>
        <Alert severity="success" role="status">
          {translate('app.auth.password_changed')}
        </Alert>
        {loginLink}
      </PublicPage>
    );
  }

  return (
    <PublicPage title={translate('app.auth.reset_title')}>
      {failure && (
        <Alert severity="error" role="alert">
          <strong>{failure.message}</strong>
          {failure.lines.map((line) => (
            <div key={line}>{line}</div>
          ))}
        </Alert>
      )}
      <form onSubmit={submit} noValidate style={{ display: 'flex', flexDirection: 'column', gap: 16 }}>
        <TextField
          label={translate('app.auth.new_password')}
          type="password"
          name="password"
          autoComplete="new-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={!!errors.password}
          helperText={errors.password}
          required
          autoFocus
        />
        <TextField
          label={translate('app.auth.confirm_password')}
          type="password"
          name="password_confirmation"
          autoComplete="new-password"
          value={confirmation}
          onChange={(e) => setConfirmation(e.target.value)}
          error={!!errors.password_confirmation}
          helperText={errors.password_confirmation}
          required
        />
        <Button
          type="submit"
          variant="contained"
          disabled={busy}
          startIcon={busy ? <CircularProgress size={16} /> : undefined}
        >
          {translate('app.auth.save_password')}
        </Button>
      </form>
      {loginLink}
    </PublicPage>
  );
}
