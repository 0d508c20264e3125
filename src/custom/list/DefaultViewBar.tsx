/**
 * Above a back-office list with views of its own (x-views, ./systemViews.ts): which view shows (the
 * schema's views, then the user's saved presets), and the user's choice of default view: 'Use as my
 * default view' for the view showing, and 'Back to the standard view' once they chose one. Shown on
 * the desktop and on a phone alike.
 */
import { useId } from 'react';
import { Box, Button, Chip, MenuItem, TextField } from '@mui/material';
import CheckCircle from '@mui/icons-material/CheckCircle';
import SettingsBackupRestore from '@mui/icons-material/SettingsBackupRestore';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import { useTranslate } from 'react-admin';
import { ToolButton } from './ListToolbar.tsx';
import type { TablePreset } from './persistence.ts';
import { presetKey, type SystemView } from './systemViews.ts';

export interface DefaultViewBarProps {
  resource: string;
  views: SystemView[];
  presets: TablePreset[];
  /** The key of the view showing (`system:…`, `preset:…`), or undefined for a filter of the user's own. */
  currentKey?: string;
  /** The key of the view the list starts with for this user. */
  defaultKey?: string;
  /** The user chose a default view (the config is stored). */
  hasChoice: boolean;
  busy?: boolean;
  onShow: (key: string) => void;
  onUseAsDefault: (key: string) => void;
  onBackToStandard: () => void;
}

const CUSTOM = '';

export function DefaultViewBar(props: DefaultViewBarProps) {
  const translate = useTranslate();
  const labelId = useId();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const { views, presets, currentKey, defaultKey } = props;
  const viewLabel = (view: SystemView) =>
    translate(`resources.${props.resource}.views.${view.name}`, { _: view.name });
  const standard = views.find((v) => v.isDefault);
  const isDefault = currentKey !== undefined && currentKey === defaultKey;
  return (
    <Box
      sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 1, mb: 1 }}
      data-testid="default-view-bar"
    >
      <TextField
        select
        size="small"
        id={labelId}
        label={translate('list.default_view.view')}
        value={currentKey ?? CUSTOM}
        onChange={(e) => {
          if (e.target.value !== CUSTOM) props.onShow(e.target.value);
        }}
        fullWidth={false}
        sx={{ width: { xs: '100%', sm: 280 } }}
      >
        {views.map((view) => (
          <MenuItem key={view.key} value={view.key}>
            {viewLabel(view)}
          </MenuItem>
        ))}
        {presets.map((preset) => (
          <MenuItem key={presetKey(preset.id)} value={presetKey(preset.id)}>
            {preset.label}
          </MenuItem>
        ))}
        <MenuItem value={CUSTOM} disabled>
          {translate('list.custom_filter')}
        </MenuItem>
      </TextField>
      {isDefault ? (
        <Chip
          icon={<CheckCircle />}
          color="success"
          variant="outlined"
          label={translate('list.default_view.is_default')}
        />
      ) : (
        <Button
          variant="outlined"
          size="small"
          disabled={currentKey === undefined || props.busy}
          onClick={() => currentKey && props.onUseAsDefault(currentKey)}
        >
          {translate('list.default_view.use')}
        </Button>
      )}
      {props.hasChoice &&
        standard &&
        (phone ? (
          // On a phone its long text took two lines above the first card: an icon named by it there.
          <ToolButton
            size="small"
            label={translate('list.default_view.back', { view: viewLabel(standard) })}
            icon={<SettingsBackupRestore fontSize="small" />}
            disabled={props.busy}
            onClick={props.onBackToStandard}
          />
        ) : (
          <Button size="small" disabled={props.busy} onClick={props.onBackToStandard}>
            {translate('list.default_view.back', { view: viewLabel(standard) })}
          </Button>
        ))}
    </Box>
  );
}
