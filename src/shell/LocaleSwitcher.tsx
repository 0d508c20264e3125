import { MenuItem, TextField } from '@mui/material';
import { useLocaleState, useTranslate } from 'react-admin';
import { LOCALES } from '../i18n/index.ts';

/** nl, en, de; the choice is kept in localStorage under 'locale' by the i18n provider. */
export function LocaleSwitcher() {
  const [locale, setLocale] = useLocaleState();
  const translate = useTranslate();
  return (
    <TextField
      select
      size="small"
      label={translate('app.locale.label')}
      value={locale}
      onChange={(e) => setLocale(e.target.value)}
      sx={{ minWidth: 140 }}
    >
      {LOCALES.map((l) => (
        <MenuItem key={l.locale} value={l.locale} lang={l.locale}>
          {l.name}
        </MenuItem>
      ))}
    </TextField>
  );
}
