/**
 * The login's second step (issue 38, item 1): after a right password the server answered 202 with a
 * challenge; here a code from the authenticator app (or a recovery code) completes the login. A user whose
 * role requires two-factor and who has none yet enrols here first: the QR code, then the first code
 * signs in and the ten recovery codes are shown once before the app opens.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { Alert, Button, CircularProgress, Link, Typography } from '@mui/material';
import { useAuthProvider, useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import {
  CodeField,
  EnrolmentCode,
  RecoveryCodes,
  refusal,
  type Enrolment,
} from '../custom/two-factor/parts.tsx';

export interface TwoFactorStepProps {
  challenge: string;
  enrol: boolean;
  /** Where the app opens once signed in (./returnTo.ts). */
  address: string;
  onBack: () => void;
}

export function TwoFactorStep({ challenge, enrol, address, onBack }: TwoFactorStepProps) {
  const translate = useTranslate();
  const authProvider = useAuthProvider();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [recovery, setRecovery] = useState(false);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [enrolment, setEnrolment] = useState<Enrolment>();
  const [codes, setCodes] = useState<string[]>();

  useEffect(() => {
    if (!enrol) return;
    let live = true;
    fetch('/api/auth/login/two-factor/enrol', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ challenge }),
    })
      .then(async (res) => {
        const body = (await res.json()) as Enrolment & { message?: string };
        if (!live) return;
        if (res.ok) setEnrolment(body);
        else setError(refusal({ status: res.status, message: body.message }, translate));
      })
      .catch(() => live && setError(translate('app.errors.network')));
    return () => {
      live = false;
    };
  }, [enrol, challenge, translate]);

  /** What useLogin does after a login: forget the permissions asked before, open the app. */
  function open() {
    void queryClient.invalidateQueries({ queryKey: ['auth', 'getPermissions'] });
    navigate(address);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!code.trim() || !authProvider) return;
    setBusy(true);
    setError(undefined);
    try {
      const answer = (await authProvider.login(
        recovery ? { challenge, recovery_code: code } : { challenge, code },
      )) as { recoveryCodes?: string[] } | undefined;
      if (answer?.recoveryCodes) setCodes(answer.recoveryCodes);
      else open();
    } catch (e) {
      setError(refusal(e, translate));
      setBusy(false);
    }
  }

  if (codes)
    return (
      <>
        <RecoveryCodes codes={codes} />
        <Button variant="contained" onClick={open}>
          {translate('app.two_factor.proceed')}
        </Button>
      </>
    );
  return (
    <form onSubmit={submit} noValidate style={{ display: 'contents' }}>
      <Typography component="h2" variant="h6">
        {translate('app.two_factor.code_title')}
      </Typography>
      {error && (
        <Alert severity="error" role="alert">
          {error}
        </Alert>
      )}
      {enrol ? (
        <>
          <Typography>{translate('app.two_factor.enrol_required')}</Typography>
          {enrolment ? <EnrolmentCode enrolment={enrolment} /> : !error && <CircularProgress />}
        </>
      ) : (
        <Typography>
          {translate(recovery ? 'app.two_factor.recovery_intro' : 'app.two_factor.code_intro')}
        </Typography>
      )}
      <CodeField key={String(recovery)} value={code} onChange={setCode} recovery={recovery} />
      <Button
        type="submit"
        variant="contained"
        disabled={busy}
        startIcon={busy ? <CircularProgress size={16} /> : undefined}
      >
        {translate('app.two_factor.verify')}
      </Button>
      {!enrol && (
        <Link
          component="button"
          type="button"
          onClick={() => {
            setRecovery(!recovery);
            setCode('');
            setError(undefined);
          }}
        >
          {translate(recovery ? 'app.two_factor.use_app' : 'app.two_factor.use_recovery')}
        </Link>
      )}
      <Link component="button" type="button" onClick={onBack}>
        {translate('app.two_factor.back_to_login')}
      </Link>
    </form>
  );
}
