/**
 * Pieces both two-factor screens share (the login's code step and the own settings page): the QR code
 * with its key, the code field, the recovery codes shown once, and how a refusal reads. The QR code is
 * an image the server drew (an SVG data URL), so no QR library is in the apps' bundles.
 */
import { Box, TextField, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { tooManyText } from '../../authProvider/wait.ts';
import { messageOf, statusOf } from '../../shell/errorCatalogue.ts';
import { serverTextKey } from '../../shell/errors.ts';

export interface Enrolment {
  secret: string;
  otpauth_url: string;
  qr_code: string;
}

/** The QR code and the key under it, for an app that cannot scan. */
export function EnrolmentCode({ enrolment }: { enrolment: Enrolment }) {
  const translate = useTranslate();
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 1 }}>
      <Typography>{translate('app.two_factor.enrol_intro')}</Typography>
      <img src={enrolment.qr_code} alt={translate('app.two_factor.qr_alt')} width={200} height={200} />
      <Typography component="p" variant="body2" id="two-factor-secret-label">
        {translate('app.two_factor.secret')}
      </Typography>
      <Typography
        component="code"
        aria-labelledby="two-factor-secret-label"
        data-secret={enrolment.secret}
        // Groups of four wrap between groups, never inside one.
        sx={{ fontFamily: 'monospace', fontSize: '1rem', textAlign: 'center' }}
      >
        {enrolment.secret.replace(/(.{4})/g, '$1 ').trim()}
      </Typography>
    </Box>
  );
}

/** Six digits from an app: the phone's number pad, and the browser's one-time-code autofill. */
export function CodeField({
  value,
  onChange,
  error,
  recovery = false,
}: {
  value: string;
  onChange: (value: string) => void;
  error?: string;
  recovery?: boolean;
}) {
  const translate = useTranslate();
  return (
    <TextField
      label={translate(recovery ? 'app.two_factor.recovery_code' : 'app.two_factor.code')}
      name={recovery ? 'recovery_code' : 'code'}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      autoComplete={recovery ? 'off' : 'one-time-code'}
      slotProps={{ htmlInput: recovery ? { maxLength: 40 } : { inputMode: 'numeric', maxLength: 8 } }}
      error={!!error}
      helperText={error}
      required
      autoFocus
    />
  );
}

/** The ten recovery codes, shown once after the enrolment is confirmed. */
export function RecoveryCodes({ codes }: { codes: string[] }) {
  const translate = useTranslate();
  return (
    <Box>
      <Typography component="h2" variant="h6">
        {translate('app.two_factor.recovery_title')}
      </Typography>
      <Typography sx={{ mb: 1 }}>{translate('app.two_factor.recovery_codes_intro')}</Typography>
      <Box
        component="ul"
        aria-label={translate('app.two_factor.recovery_title')}
        sx={{ fontFamily: 'monospace', columns: 2, listStyle: 'none', p: 0, m: 0, fontSize: '1rem' }}
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </Box>
    </Box>
  );
}

/** Why a code or password was refused, in the user's language. */
export function refusal(error: unknown, translate: (key: string, options?: object) => string): string {
  const message = messageOf(error);
  if (statusOf(error) === 429) return tooManyText('app.auth.too_many_attempts', message, translate);
  const key = message ? serverTextKey(message) : undefined;
  return translate(key ?? 'app.two_factor.failed');
}
