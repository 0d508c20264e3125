/** The prepaid upgrade of a contract: the portal's contract detail and the back office's dialog. */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import {
  Box,
  Button,
  Card,
  CardContent,
  FormControl,
  FormControlLabel,
  FormLabel,
  Radio,
  RadioGroup,
  Typography,
} from '@mui/material';
import {
  useDataProvider,
  useGetList,
  useLocaleState,
  useNotify,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import { formatMoney } from '../../../common/format.ts';
import type { ServiceDeskDataProvider } from '../../dataProvider/index.ts';

/**
 * SPEC 2: a prepaid contract (period 'none') is topped up with a prepaid card; the button stays disabled
 * until a card is chosen. SPEC 8: 'Prepaid card upgraded', or 'Failed to upgrade the prepaid card.'
 */
export function UpgradeForm({
  contract,
  onBought,
  focus = false,
}: {
  contract: RaRecord;
  onBought: (c: RaRecord) => void;
  /** Brought into view with its first card focused once the cards are read (the low-balance mail's link). */
  focus?: boolean;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const [locale] = useLocaleState();
  const dataProvider = useDataProvider<ServiceDeskDataProvider>();
  const { data: cards = [] } = useGetList('prepaid-cards', {
    pagination: { page: 1, perPage: 100 },
    sort: { field: 'hours', order: 'ASC' },
  });
  const [chosen, setChosen] = useState('');
  const [saving, setSaving] = useState(false);
  const section = useRef<HTMLElement>(null);
  const focused = useRef(false);
  useEffect(() => {
    if (!focus || focused.current || cards.length === 0 || !section.current) return;
    focused.current = true;
    section.current.scrollIntoView({ block: 'center' });
    section.current.querySelector<HTMLInputElement>('input[type="radio"]')?.focus({ preventScroll: true });
  }, [focus, cards.length]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!chosen) return;
    setSaving(true);
    try {
      const updated = await dataProvider.recordAction('contracts', contract.id, 'buy', {
        prepaid_card_id: Number(chosen),
      });
      notify('app.notifications.prepaid_upgraded', { type: 'success' });
      setChosen('');
      onBought(updated);
    } catch {
      notify('app.errors.prepaid_upgrade_failed', { type: 'error' });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card
      ref={section}
      component="section"
      aria-labelledby="prepaid-upgrade-title"
      data-testid="prepaid-upgrade"
    >
      <CardContent>
        <Typography id="prepaid-upgrade-title" variant="h6" component="h2">
          {translate('app.prepaid.upgrade_title')}
        </Typography>
        <Typography variant="body2" sx={{ mb: 1 }}>
          {translate('app.prepaid.upgrade_intro')}
        </Typography>
        <Box component="form" onSubmit={submit}>
          <FormControl>
            <FormLabel id="prepaid-choose">{translate('app.prepaid.choose')}</FormLabel>
            <RadioGroup
              aria-labelledby="prepaid-choose"
              value={chosen}
              onChange={(e) => setChosen(e.target.value)}
            >
              {cards.map((card) => (
                <FormControlLabel
                  key={card.id}
                  value={String(card.id)}
                  control={<Radio />}
                  label={`${String(card.description ?? '')} · ${translate('app.prepaid.hours', {
                    smart_count: Number(card.hours),
                  })} · ${formatMoney(card.price, locale)}`}
                />
              ))}
            </RadioGroup>
          </FormControl>
          <Box sx={{ mt: 1 }}>
            <Button type="submit" variant="contained" disabled={!chosen || saving}>
              {translate('app.prepaid.upgrade')}
            </Button>
          </Box>
        </Box>
      </CardContent>
    </Card>
  );
}
