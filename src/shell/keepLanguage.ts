/**
 * Keeps the language an operator reads the back office in as their user config (common/language-config.ts),
 * so the mails they are sent (their notifications) are written in it too. Saved when it differs from the
 * one kept; not when none is kept and the app shows Dutch, the mails' default (Dutch with the English
 * below), so most sign-ins cost no request.
 */
import { useEffect } from 'react';
import { useDataProvider, useLocaleState } from 'react-admin';
import { LANGUAGE_CONFIG } from '../../common/language-config.ts';
import type { ServiceDeskDataProvider } from '../dataProvider/index.ts';
import { storedConfig } from '../dataProvider/storage.ts';
import { DEFAULT_LOCALE } from '../i18n/index.ts';
import { useNotifyError } from './errors.ts';

export function useKeepLanguage(enabled: boolean): void {
  const [locale] = useLocaleState();
  const dataProvider = useDataProvider<ServiceDeskDataProvider>();
  const notifyError = useNotifyError();
  useEffect(() => {
    if (!enabled) return;
    const stored = storedConfig(LANGUAGE_CONFIG);
    const kept = typeof stored === 'string' ? stored : undefined;
    if (kept === locale || (kept === undefined && locale === DEFAULT_LOCALE)) return;
    dataProvider.saveConfigs([{ name: LANGUAGE_CONFIG, value: locale }]).catch(notifyError);
  }, [enabled, locale, dataProvider, notifyError]);
}
