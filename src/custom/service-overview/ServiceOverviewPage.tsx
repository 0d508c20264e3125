/**
 * The client portal's service overview (issue 36, item 3) at /service-overview: for the client's
 * companies (all, or one they pick), per month over the last 12 months or a year they pick, the tickets
 * opened and solved, the median first response and resolution against the SLA promised, and the hours
 * of their contracts (GET /api/portal/service-overview). Beside it, the opt-in to the same figures by
 * mail every month, kept as the client's user config with the language the mail is written in.
 * Without portal.reports.index the address is the portal's 'page not found'.
 */
import { useId, useState } from 'react';
import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useDataProvider, useLocaleState, useTranslate } from 'react-admin';
import { SERVICE_OVERVIEW_MAIL_CONFIG, type ServiceOverview } from '../../../common/service-overview.ts';
import { LANGUAGE_CONFIG } from '../../../common/language-config.ts';
import type { ServiceDeskDataProvider } from '../../dataProvider/index.ts';
import { toQueryString } from '../../dataProvider/builder.ts';
import { getUser, storedConfig } from '../../dataProvider/storage.ts';
import { DocumentTitle } from '../../shell/DocumentTitle.tsx';
import { useNotifyError } from '../../shell/errors.ts';
import { PageNotFound } from '../../shell/guards.tsx';
import { useKeepLanguage } from '../../shell/keepLanguage.ts';
import { Loaded, useReport } from '../reports/useReport.tsx';
import { ContractsSection, TicketsSection, TimesSection } from './OverviewSections.tsx';
import { useMaySeeOverview } from './permission.ts';

/** The years a client may pick besides the last 12 months: this one and the four before. */
const YEARS = 5;

const CONTROLS = {
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fill, minmax(200px, 1fr))',
  gap: 2,
  alignItems: 'end',
} as const;

/** The monthly mail's switch: on, it keeps the language shown too, which the mail is written in. */
function MailOptIn() {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const dataProvider = useDataProvider<ServiceDeskDataProvider>();
  const notifyError = useNotifyError();
  const [on, setOn] = useState(() => storedConfig(SERVICE_OVERVIEW_MAIL_CONFIG) === true);
  const [saving, setSaving] = useState(false);
  const helpId = useId();
  useKeepLanguage(on);
  const change = (value: boolean) => {
    setOn(value);
    setSaving(true);
    dataProvider
      .saveConfigs([
        { name: SERVICE_OVERVIEW_MAIL_CONFIG, value },
        { name: LANGUAGE_CONFIG, value: locale },
      ])
      .catch((error: unknown) => {
        setOn(!value);
        notifyError(error);
      })
      .finally(() => setSaving(false));
  };
  return (
    <Box>
      <FormControlLabel
        control={
          <Switch
            checked={on}
            disabled={saving}
            onChange={(e) => change(e.target.checked)}
            slotProps={{ input: { 'aria-describedby': helpId } }}
          />
        }
        label={translate('service_overview.mail_optin')}
      />
      <FormHelperText id={helpId} sx={{ mt: 0 }}>
        {translate('service_overview.mail_optin_help')}
      </FormHelperText>
    </Box>
  );
}

function Overview() {
  const translate = useTranslate();
  const t = (key: string) => translate(`service_overview.${key}`);
  const headingId = useId();
  const companies = getUser()?.companies ?? [];
  const [company, setCompany] = useState<number | 'all'>('all');
  const [year, setYear] = useState<number | 'last'>('last');
  const thisYear = new Date().getFullYear();
  const query = toQueryString({
    ...(company === 'all' ? {} : { company_id: company }),
    ...(year === 'last' ? {} : { year }),
  });
  const state = useReport<ServiceOverview>(`portal/service-overview${query ? `?${query}` : ''}`);

  return (
    <Box component="section" sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 2, minWidth: 0 }}>
      <DocumentTitle section={t('title')} />
      <Typography variant="h5" component="h1" id={headingId}>
        {t('title')}
      </Typography>
      <Typography>{t('intro')}</Typography>
      <Box sx={CONTROLS}>
        {companies.length > 1 && (
          <TextField
            select
            size="small"
            label={t('company')}
            value={company}
            onChange={(e) => setCompany(e.target.value === 'all' ? 'all' : Number(e.target.value))}
          >
            <MenuItem value="all">{t('all_companies')}</MenuItem>
            {companies.map((c) => (
              <MenuItem key={c.id} value={c.id}>
                {c.name}
              </MenuItem>
            ))}
          </TextField>
        )}
        <TextField
          select
          size="small"
          label={t('period')}
          value={year}
          onChange={(e) => setYear(e.target.value === 'last' ? 'last' : Number(e.target.value))}
        >
          <MenuItem value="last">{t('last_12_months')}</MenuItem>
          {Array.from({ length: YEARS }, (_, i) => thisYear - i).map((y) => (
            <MenuItem key={y} value={y}>
              {y}
            </MenuItem>
          ))}
        </TextField>
      </Box>
      <MailOptIn />
      <Loaded state={state} height={240}>
        {(answer) => (
          <>
            <Typography component="h2" variant="h6">
              {t('tickets_title')}
            </Typography>
            <TicketsSection answer={answer} id={`${headingId}-tickets`} />
            <Typography component="h2" variant="h6">
              {t('times_title')}
            </Typography>
            <TimesSection answer={answer} id={`${headingId}-times`} />
            <Typography variant="body2" color="text.secondary">
              {t('explained')}
            </Typography>
            <Typography component="h2" variant="h6">
              {t('contracts_title')}
            </Typography>
            <ContractsSection answer={answer} id={`${headingId}-contracts`} />
          </>
        )}
      </Loaded>
    </Box>
  );
}

export default function ServiceOverviewPage() {
  return useMaySeeOverview() ? <Overview /> : <PageNotFound />;
}
