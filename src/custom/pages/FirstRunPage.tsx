import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  FormControlLabel,
  Link,
  MenuItem,
  Stack,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import { useAuthProvider, useBasename, useLocaleState, useTranslate } from 'react-admin';
import { Link as RouterLink, Navigate } from 'react-router-dom';
import { PublicPage } from '../../shell/PublicPage.tsx';
import { Waiting } from '../../shell/Waiting.tsx';
import { translateLine } from '../../shell/errors.ts';
import { LOCALES } from '../../i18n/index.ts';
import { postAnonymous } from './PasswordResetRequestPage.tsx';
import { serverText } from '../../../common/server-texts.ts';

/** GET /api/setup (server/setup/routes.ts). */
interface SetupState {
  needed: boolean;
  smtp: boolean;
  password_min_length: number;
}

type CheckAnswer = { ok: true; messages?: number; file?: boolean } | { ok: false; error: string };
type Shown = { severity: 'success' | 'error' | 'info'; text: string };

const MAILBOX_FIELDS = ['host', 'username', 'mailbox_password'] as const;
const REQUIRED = ['name', 'first_name', 'last_name', 'email', 'password'] as const;
type Field = (typeof REQUIRED)[number] | (typeof MAILBOX_FIELDS)[number] | 'port';

/**
 * The back office's first run (issue 32): while the installation has no tenant, the login page sends
 * here. The organisation, its language and the first second-line operator; optionally a test of the
 * outgoing mail and a first mailbox with a connection test. Then the operator is signed in. Once a
 * tenant exists the page leads to sign-in, and the server refuses a second setup (409).
 */
export default function FirstRunPage() {
  const translate = useTranslate();
  const authProvider = useAuthProvider();
  const basename = useBasename();
  const [locale] = useLocaleState();
  const [state, setState] = useState<SetupState | 'failed' | undefined>();
  const [values, setValues] = useState<Record<Field, string>>({
    name: '',
    first_name: '',
    last_name: '',
    email: '',
    password: '',
    host: '',
    port: '993',
    username: '',
    mailbox_password: '',
  });
  // The desk's language follows the page's until it is chosen here.
  const [chosenLanguage, setLanguage] = useState<string | undefined>();
  const language = chosenLanguage ?? locale;
  const [withMailbox, setWithMailbox] = useState(false);
  const [tls, setTls] = useState(true);
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState<'submit' | 'mail' | 'mailbox' | undefined>();
  const [serverErrors, setServerErrors] = useState<Partial<Record<Field, string>>>({});
  const [failure, setFailure] = useState<string | undefined>();
  const [mailResult, setMailResult] = useState<Shown | undefined>();
  const [mailboxResult, setMailboxResult] = useState<Shown | undefined>();

  useEffect(() => {
    let live = true;
    fetch('/api/setup', { headers: { accept: 'application/json' } })
      .then((res): Promise<SetupState | 'failed'> | 'failed' => (res.ok ? res.json() : 'failed'))
      .catch((): 'failed' => 'failed')
      .then((answer) => live && setState(answer));
    return () => {
      live = false;
    };
  }, []);

  if (state === undefined) return <Waiting />;
  if (state !== 'failed' && !state.needed) return <Navigate to="/login" replace />;
  const minLength = state === 'failed' ? 8 : state.password_min_length;

  const label = (field: Field) => translate(`first_run.${field}`);
  const set = (field: Field) => (event: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [field]: event.target.value }));
    setServerErrors((e) => ({ ...e, [field]: undefined }));
  };
  const required = withMailbox ? [...REQUIRED, ...MAILBOX_FIELDS] : [...REQUIRED];
  const errorOf = (field: Field) =>
    serverErrors[field] ??
    (submitted && required.includes(field as never) && !values[field].trim()
      ? translate('app.errors.required', { field: label(field) })
      : undefined);
  const input = (field: Field, extra: object = {}) => (
    <TextField
      label={label(field)}
      value={values[field]}
      onChange={set(field)}
      required={required.includes(field as never)}
      error={!!errorOf(field)}
      helperText={errorOf(field)}
      fullWidth
      {...extra}
    />
  );
  const mailbox = () => ({
    host: values.host.trim(),
    port: Number(values.port),
    tls,
    username: values.username.trim(),
    password: values.mailbox_password,
  });
  const said = (line: string) => translateLine(line, '', undefined, translate);

  async function testMail() {
    if (!values.email.trim())
      return setMailResult({ severity: 'info', text: translate('first_run.test_needs_email') });
    setBusy('mail');
    const res = await postAnonymous('/api/setup/test-mail', { to: values.email.trim(), language }).catch(
      () => undefined,
    );
    setBusy(undefined);
    setMailResult(
      checkShown(
        res,
        (answer) =>
          answer.file
            ? translate('first_run.test_written')
            : translate('first_run.test_sent', { email: values.email.trim() }),
        (error) => translate('first_run.test_failed', { error }),
      ),
    );
  }

  async function testMailbox() {
    setBusy('mailbox');
    const res = await postAnonymous('/api/setup/test-mailbox', mailbox()).catch(() => undefined);
    setBusy(undefined);
    setMailboxResult(
      checkShown(
        res,
        (answer) => translate('first_run.connected', { smart_count: answer.messages ?? 0 }),
        (error) => translate('first_run.not_connected', { error }),
      ),
    );
  }

  /** A test's answer as an alert: its own words, else the server's refusal in the user's language. */
  function checkShown(
    res: { status: number; body: any } | undefined,
    ok: (answer: CheckAnswer & { ok: true }) => string,
    failed: (error: string) => string,
  ): Shown {
    if (!res) return { severity: 'error', text: translate('app.errors.network') };
    const answer = res.body as CheckAnswer | { message?: string } | null;
    if (res.status === 200 && answer && 'ok' in answer) {
      return answer.ok
        ? { severity: 'success', text: ok(answer) }
        : { severity: 'error', text: failed(answer.error) };
    }
    const message = answer && 'message' in answer ? answer.message : undefined;
    return { severity: 'error', text: message ? said(message) : translate('app.errors.generic') };
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    setFailure(undefined);
    if (required.some((field) => !values[field].trim())) return;
    if (!EMAIL.test(values.email.trim())) {
      setServerErrors({ email: translate('first_run.email_invalid') });
      return;
    }
    if ([...values.password].length < minLength) {
      setServerErrors({
        password: translate('app.errors.min_length', {
          subject: translate('app.auth.password_subject'),
          length: minLength,
        }),
      });
      return;
    }
    setBusy('submit');
    const email = values.email.trim();
    const res = await postAnonymous('/api/setup', {
      name: values.name.trim(),
      language,
      admin: {
        first_name: values.first_name.trim(),
        last_name: values.last_name.trim(),
        email,
        password: values.password,
      },
      ...(withMailbox ? { mailbox: mailbox() } : {}),
    }).catch(() => undefined);
    if (res?.status === 201) {
      // Signed in, then a fresh start of the app: its state from before the tenant existed (a failed
      // check of the session at the first visit) must not act on the new session.
      try {
        await authProvider!.login({ username: email, password: values.password });
        window.location.replace(`${basename}/`);
      } catch {
        setBusy(undefined);
        setFailure(translate('ra.auth.sign_in_error'));
      }
      return;
    }
    setBusy(undefined);
    if (!res) return setFailure(translate('app.errors.network'));
    const errors = (res.body?.errors ?? {}) as Record<string, string[]>;
    const byField: Partial<Record<Field, string>> = {};
    for (const [path, lines] of Object.entries(errors)) {
      const field = FIELD_OF[path.replace(/^body\./, '')];
      if (field && lines[0]) byField[field] = said(lines[0]);
    }
    setServerErrors(byField);
    if (Object.keys(byField).length === 0)
      setFailure(said(String(res.body?.message ?? '')) || translate('app.errors.generic'));
  }

  const section = (title: string, children: ReactNode) => (
    <Stack component="section" spacing={2} aria-label={title}>
      <Typography variant="h6" component="h2">
        {title}
      </Typography>
      {children}
    </Stack>
  );
  const pending = (what: typeof busy) => (busy === what ? <CircularProgress size={16} /> : undefined);
  /** A test's button and, once it has run, what it found. */
  const checkRow = (run: () => Promise<void>, what: 'mail' | 'mailbox', label: string, result?: Shown) => (
    <>
      <Box>
        <Button variant="outlined" onClick={() => void run()} disabled={!!busy} startIcon={pending(what)}>
          {translate(label)}
        </Button>
      </Box>
      {result && (
        <Alert severity={result.severity} role="status">
          {result.text}
        </Alert>
      )}
    </>
  );

  return (
    <PublicPage title={translate('first_run.title')} maxWidth={600} onSubmit={submit}>
      <Typography>{translate('first_run.intro')}</Typography>
      {failure && (
        <Alert severity="error" role="alert">
          {failure}{' '}
          {failure === said(SETUP_DONE) && (
            <Link component={RouterLink} to="/login">
              {translate('first_run.to_login')}
            </Link>
          )}
        </Alert>
      )}
      {section(
        translate('first_run.organisation'),
        <>
          {input('name', { autoFocus: true, autoComplete: 'organization' })}
          <TextField
            select
            label={translate('first_run.language')}
            helperText={translate('first_run.language_help')}
            value={language}
            onChange={(e) => setLanguage(e.target.value)}
          >
            {LOCALES.map((l) => (
              <MenuItem key={l.locale} value={l.locale} lang={l.locale}>
                {l.name}
              </MenuItem>
            ))}
          </TextField>
          <Typography variant="body2">
            {translate('first_run.address', { address: window.location.origin })}
          </Typography>
        </>,
      )}
      {section(
        translate('first_run.operator'),
        <>
          <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', '& > *': { flex: '1 1 200px' } }}>
            {input('first_name', { autoComplete: 'given-name' })}
            {input('last_name', { autoComplete: 'family-name' })}
          </Box>
          {input('email', { type: 'email', autoComplete: 'email' })}
          {input('password', {
            type: 'password',
            autoComplete: 'new-password',
            helperText: errorOf('password') ?? translate('first_run.password_help', { length: minLength }),
          })}
        </>,
      )}
      {section(
        translate('first_run.mail'),
        <>
          <Typography variant="body2">
            {translate(state !== 'failed' && state.smtp ? 'first_run.smtp_set' : 'first_run.smtp_unset')}
          </Typography>
          {checkRow(testMail, 'mail', 'first_run.send_test', mailResult)}
        </>,
      )}
      {section(
        translate('first_run.mailbox'),
        <>
          <Typography variant="body2">{translate('first_run.mailbox_intro')}</Typography>
          <FormControlLabel
            control={<Switch checked={withMailbox} onChange={(e) => setWithMailbox(e.target.checked)} />}
            label={translate('first_run.connect_mailbox')}
          />
          {withMailbox && (
            <>
              <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'center' }}>
                <Box sx={{ flex: '3 1 220px' }}>{input('host')}</Box>
                <Box sx={{ flex: '1 1 90px' }}>
                  {input('port', { type: 'number', inputProps: { min: 1, max: 65535 } })}
                </Box>
                <FormControlLabel
                  control={<Switch checked={tls} onChange={(e) => setTls(e.target.checked)} />}
                  label={translate('first_run.tls')}
                />
              </Box>
              {input('username', { autoComplete: 'off' })}
              {input('mailbox_password', { type: 'password', autoComplete: 'off' })}
              {checkRow(testMailbox, 'mailbox', 'first_run.test_connection', mailboxResult)}
            </>
          )}
        </>,
      )}
      <Button type="submit" variant="contained" disabled={!!busy} startIcon={pending('submit')}>
        {translate('first_run.submit')}
      </Button>
    </PublicPage>
  );
}

/** The server's text for a desk set up already (server/tenancy/create-tenant.ts). */
const SETUP_DONE = serverText('setup_done');

/** A plain check before the server's own: something@domain.tld, no spaces. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The fields of POST /api/setup's body as the server names them in a 422, to the page's own. */
const FIELD_OF: Record<string, Field> = {
  name: 'name',
  'admin.first_name': 'first_name',
  'admin.last_name': 'last_name',
  'admin.email': 'email',
  'admin.password': 'password',
  'mailbox.host': 'host',
  'mailbox.port': 'port',
  'mailbox.username': 'username',
  'mailbox.password': 'mailbox_password',
};
