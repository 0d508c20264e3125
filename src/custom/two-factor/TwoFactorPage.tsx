/**
 * The signed-in user's own two-factor sign-in (issue 38, item 1), in both apps from the user menu: see
 * whether it is on; set it up (the QR code, then a first code turns it on and the ten recovery codes
 * are shown once); turn it off with a current code or the password, unless the role requires it.
 */
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { Alert, Box, Button, Card, CardContent, Stack, TextField, Typography } from '@mui/material';
import { useDataProvider, useNotify, useTranslate } from 'react-admin';
import type { ServiceDeskDataProvider } from '../../dataProvider/index.ts';
import { DocumentTitle } from '../../shell/DocumentTitle.tsx';
import { CodeField, EnrolmentCode, RecoveryCodes, refusal, type Enrolment } from './parts.tsx';

interface State {
  enabled: boolean;
  enrolled_at: string | null;
  required: boolean;
  recovery_codes_left: number;
}

export default function TwoFactorPage() {
  const translate = useTranslate();
  const notify = useNotify();
  const api = useDataProvider<ServiceDeskDataProvider>();
  const [state, setState] = useState<State>();
  const [enrolment, setEnrolment] = useState<Enrolment>();
  const [codes, setCodes] = useState<string[]>();
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const load = useCallback(
    () =>
      api
        .call<State>('GET', 'auth/two-factor')
        .then(setState, (e: unknown) => setError(refusal(e, translate))),
    [api, translate],
  );
  useEffect(() => {
    void load();
  }, [load]);

  /** Runs one call of the page: busy meanwhile, its refusal shown in the alert. */
  async function run(action: () => Promise<void>) {
    setBusy(true);
    setError(undefined);
    try {
      await action();
    } catch (e) {
      setError(refusal(e, translate));
    } finally {
      setBusy(false);
    }
  }

  const start = () =>
    run(async () => {
      setCodes(undefined);
      setEnrolment(await api.call<Enrolment>('POST', 'auth/two-factor/start'));
    });

  const confirm = (event: FormEvent) => {
    event.preventDefault();
    return run(async () => {
      const answer = await api.call<{ recovery_codes: string[] }>('POST', 'auth/two-factor/confirm', {
        body: { code },
      });
      setCodes(answer.recovery_codes);
      setEnrolment(undefined);
      setCode('');
      notify('app.two_factor.enabled', { type: 'success' });
      await load();
    });
  };

  const disable = (event: FormEvent) => {
    event.preventDefault();
    return run(async () => {
      await api.call('POST', 'auth/two-factor/disable', {
        body: code.trim() ? { code } : { password },
      });
      setCode('');
      setPassword('');
      notify('app.two_factor.disabled', { type: 'success' });
      await load();
    });
  };

  const title = translate('app.two_factor.title');
  return (
    <Box sx={{ p: { xs: 1, sm: 2 }, maxWidth: 560 }}>
      <DocumentTitle section={title} />
      <Typography component="h1" variant="h5" sx={{ mb: 2 }}>
        {title}
      </Typography>
      <Card>
        <CardContent>
          <Stack spacing={2}>
            {error && (
              <Alert severity="error" role="alert">
                {error}
              </Alert>
            )}
            {state && (
              <Typography>
                {translate(state.enabled ? 'app.two_factor.status_on' : 'app.two_factor.status_off')}
                {state.enabled &&
                  ` ${translate('app.two_factor.codes_left', { smart_count: state.recovery_codes_left })}`}
              </Typography>
            )}
            {state?.required && <Typography>{translate('app.two_factor.required')}</Typography>}
            {codes && <RecoveryCodes codes={codes} />}
            {state && !state.enabled && !enrolment && (
              <Button
                variant="contained"
                onClick={() => void start()}
                disabled={busy}
                sx={{ alignSelf: 'start' }}
              >
                {translate('app.two_factor.start')}
              </Button>
            )}
            {enrolment && (
              <Stack component="form" spacing={2} onSubmit={confirm} noValidate>
                <EnrolmentCode enrolment={enrolment} />
                <CodeField value={code} onChange={setCode} />
                <Stack direction="row" spacing={1}>
                  <Button type="submit" variant="contained" disabled={busy || !code.trim()}>
                    {translate('app.two_factor.confirm')}
                  </Button>
                  <Button onClick={() => setEnrolment(undefined)}>
                    {translate('app.two_factor.cancel')}
                  </Button>
                </Stack>
              </Stack>
            )}
            {state?.enabled && !state.required && (
              <Stack component="form" spacing={2} onSubmit={disable} noValidate>
                <Typography>{translate('app.two_factor.disable_intro')}</Typography>
                <TextField
                  label={translate('app.two_factor.code')}
                  name="code"
                  value={code}
                  onChange={(e) => setCode(e.target.value)}
                  autoComplete="one-time-code"
                  slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 8 } }}
                />
                <TextField
                  label={translate('app.two_factor.password')}
                  name="password"
                  type="password"
                  value={password}
                  onChange={(e) => setPassword(e.target.value)}
                  autoComplete="current-password"
                />
                <Button
                  type="submit"
                  variant="outlined"
                  color="error"
                  disabled={busy || (!code.trim() && !password)}
                  sx={{ alignSelf: 'start' }}
                >
                  {translate('app.two_factor.disable')}
                </Button>
              </Stack>
            )}
          </Stack>
        </CardContent>
      </Card>
    </Box>
  );
}
