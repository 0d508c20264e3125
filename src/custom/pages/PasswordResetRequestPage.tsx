import { useState, type FormEvent } from 'react';
import { Alert, Button, CircularProgress, Link, TextField, Typography } from '@mui/material';
import { useBasename, useLocaleState, useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { PublicPage } from '../../shell/PublicPage.tsx';
import { tooManyText } from '../../authProvider/wait.ts';

/** POST without a session; resolves to the answer's status and JSON body (null when none). */
export async function postAnonymous(path: string, body: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(path, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  return { status: res.status, body: parsed };
}

/**
 * /password-reset: asks for a reset link by e-mail address. The server answers the same whether or
 * not it knows the address, and so does this page; too many requests is said in the user's language
 * with the wait the server names, any other refusal as the server words it.
 */
export default function PasswordResetRequestPage() {
  const translate = useTranslate();
  const basename = useBasename();
  const [locale] = useLocaleState();
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<{ ok: boolean; text: string } | undefined>();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setAnswer(undefined);
    try {
      const res = await postAnonymous('/api/auth/password/forgot', { email: email.trim(), locale });
      const ok = res.status >= 200 && res.status < 300;
      const message = typeof res.body?.message === 'string' ? (res.body.message as string) : undefined;
      const refusal =
        res.status === 429
          ? tooManyText('app.auth.too_many_reset_requests', message, translate)
          : (message ?? translate('app.errors.generic'));
      setAnswer(ok ? { ok, text: translate('app.auth.reset_link_sent') } : { ok, text: refusal });
    } catch {
      setAnswer({ ok: false, text: translate('app.errors.network') });
    } finally {
      setBusy(false);
    }
  }

  return (
    <PublicPage title={translate('app.auth.reset_title')}>
      <Typography>{translate('app.auth.reset_intro')}</Typography>
      {answer && (
        <Alert severity={answer.ok ? 'success' : 'error'} role={answer.ok ? 'status' : 'alert'}>
          {answer.text}
        </Alert>
      )}
      <form onSubmit={submit} noValidate style={{ display: 'flex', flexDirection: 'column', gap: 16 }}>
        <TextField
          label={translate('app.auth.email')}
          type="email"
          name="email"
          autoComplete="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          required
          autoFocus
        />
        <Button
          type="submit"
          variant="contained"
          disabled={busy || !email.trim()}
          startIcon={busy ? <CircularProgress size={16} /> : undefined}
        >
          {translate('app.auth.send_reset_link')}
        </Button>
      </form>
      <Link component={RouterLink} to={`${basename}/login`}>
        {translate('app.auth.back_to_login')}
      </Link>
    </PublicPage>
  );
}
