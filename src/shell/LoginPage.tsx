import { useState, type FormEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  CircularProgress,
  TextField,
  Typography,
} from '@mui/material';
import { useLogin, useTranslate } from 'react-admin';
import { useAppKind } from '../custom/appKind.ts';
import { LocaleSwitcher } from './LocaleSwitcher.tsx';
import { useSystemStatus } from './systemStatus.ts';
import { DocumentTitle } from './DocumentTitle.tsx';
import { takeFlash } from './flash.ts';

/** Sign-in with e-mail and password; the server's message (wrong password, too many attempts) is shown as is. */
export function LoginPage() {
  const translate = useTranslate();
  const login = useLogin();
  const kind = useAppKind();
  const status = useSystemStatus();
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
      setError((e as Error)?.message || translate('ra.auth.sign_in_error'));
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
          <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
            <LocaleSwitcher />
          </Box>
        </CardContent>
      </Card>
    </Box>
  );
}
