/**
 * The desktop toolbar (SPEC 2): refresh, 'from-to of total', export, filter reset, create preset,
 * presets menu with result counts, settings (columns and page size). Every button has an accessible
 * name and a tooltip.
 */
import { useId, useState, type ReactElement } from 'react';
import BookmarkAdd from '@mui/icons-material/BookmarkAdd';
import Bookmarks from '@mui/icons-material/Bookmarks';
import Check from '@mui/icons-material/Check';
import Download from '@mui/icons-material/Download';
import FilterAltOff from '@mui/icons-material/FilterAltOff';
import Refresh from '@mui/icons-material/Refresh';
import SwapVert from '@mui/icons-material/SwapVert';
import Settings from '@mui/icons-material/Settings';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton, { type IconButtonProps } from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useTranslate } from 'react-admin';
import type { TablePreset } from './persistence.ts';

/**
 * An icon button with an accessible name and the same text as tooltip. A disabled button gets no
 * tooltip: it would need a wrapping element, which the tooltip would then label instead of the button.
 * The tooltip stays in place (no portal), inside the page's landmarks.
 */
export function ToolButton({
  label,
  icon,
  disabled,
  ...rest
}: Omit<IconButtonProps, 'children' | 'aria-label'> & { label: string; icon: ReactElement }) {
  const button = (
    <IconButton aria-label={label} disabled={disabled} {...rest}>
      {icon}
    </IconButton>
  );
  return disabled ? (
    button
  ) : (
    <Tooltip title={label} slotProps={{ popper: { disablePortal: true } }}>
      {button}
    </Tooltip>
  );
}

export interface ListToolbarProps {
  range?: { from: number; to: number; total: number };
  onRefresh: () => void;
  onResetFilters: () => void;
  filterActive: boolean;
  canExport: boolean;
  onExport: () => void;
  exporting?: boolean;
  canPresets: boolean;
  presets: TablePreset[];
  counts: Record<string, number>;
  activePresetId?: TablePreset['id'];
  onApplyPreset: (preset: TablePreset) => void;
  onCreatePreset: (label: string, isDefault: boolean) => void;
  onManageViews: () => void;
  onOpenSettings: () => void;
  /** Opens the record order dialog; only for a resource with update-order the user may use. */
  onReorder?: () => void;
}

export function ListToolbar(props: ListToolbarProps) {
  const translate = useTranslate();
  const { range } = props;
  const [creating, setCreating] = useState(false);
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 0.5 }}>
      <ToolButton label={translate('list.refresh')} icon={<Refresh />} onClick={props.onRefresh} />
      <Typography variant="body2" color="text.primary" role="status" sx={{ mx: 1, minWidth: 80 }}>
        {range ? translate('list.counter', range) : ''}
      </Typography>
      {props.canExport && (
        <ToolButton
          label={translate('list.export')}
          icon={<Download />}
          onClick={props.onExport}
          disabled={props.exporting}
        />
      )}
      <ToolButton
        label={translate('list.reset_filters')}
        icon={<FilterAltOff />}
        onClick={props.onResetFilters}
        disabled={!props.filterActive}
      />
      {props.canPresets && (
        <>
          <ToolButton
            label={translate('list.presets.create')}
            icon={<BookmarkAdd />}
            onClick={() => setCreating(true)}
            aria-haspopup="dialog"
          />
          <PresetsMenu {...props} />
        </>
      )}
      {props.onReorder && (
        <ToolButton
          label={translate('list.reorder.title')}
          icon={<SwapVert />}
          onClick={props.onReorder}
          aria-haspopup="dialog"
        />
      )}
      <ToolButton
        label={translate('list.settings')}
        icon={<Settings />}
        onClick={props.onOpenSettings}
        aria-haspopup="dialog"
      />
      <CreatePresetDialog
        open={creating}
        onClose={() => setCreating(false)}
        onSave={(label, isDefault) => {
          setCreating(false);
          props.onCreatePreset(label, isDefault);
        }}
      />
    </Box>
  );
}

function PresetsMenu({ presets, counts, activePresetId, onApplyPreset, onManageViews }: ListToolbarProps) {
  const translate = useTranslate();
  const menuId = useId();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const close = () => setAnchor(null);
  return (
    <>
      <ToolButton
        label={translate('list.presets.menu')}
        icon={<Bookmarks />}
        onClick={(event) => setAnchor(event.currentTarget)}
        aria-haspopup="menu"
        aria-expanded={anchor !== null}
        aria-controls={anchor ? menuId : undefined}
      />
      {/* Drawn inside the list's own landmark instead of at the end of the page (axe: region), and still
          through a portal, so MUI's modal hides only what is behind it and not the menu itself. */}
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={anchor !== null}
        onClose={close}
        container={anchor?.closest('main') ?? undefined}
      >
        {/* A menu holds menu items only (axe: aria-required-children): 'no views yet' is one, disabled. */}
        {presets.length === 0 && <MenuItem disabled>{translate('list.presets.none')}</MenuItem>}
        {presets.map((preset) => {
          const count = counts[String(preset.id)];
          return (
            <MenuItem
              key={preset.id}
              selected={preset.id === activePresetId}
              onClick={() => {
                close();
                onApplyPreset(preset);
              }}
            >
              <ListItemIcon>{preset.id === activePresetId ? <Check fontSize="small" /> : null}</ListItemIcon>
              <ListItemText primary={preset.label} />
              {count !== undefined && (
                <Typography variant="body2" color="text.secondary" sx={{ ml: 2 }}>
                  {translate('list.presets.count', { smart_count: count, count })}
                </Typography>
              )}
            </MenuItem>
          );
        })}
        <Divider />
        <MenuItem
          onClick={() => {
            close();
            onManageViews();
          }}
        >
          <ListItemIcon>
            <Settings fontSize="small" />
          </ListItemIcon>
          <ListItemText primary={translate('list.views.manage')} />
        </MenuItem>
      </Menu>
    </>
  );
}

export function CreatePresetDialog({
  open,
  onClose,
  onSave,
}: {
  open: boolean;
  onClose: () => void;
  onSave: (label: string, isDefault: boolean) => void;
}) {
  return open ? <CreatePresetForm onClose={onClose} onSave={onSave} /> : null;
}

function CreatePresetForm({
  onClose,
  onSave,
}: {
  onClose: () => void;
  onSave: (label: string, isDefault: boolean) => void;
}) {
  const translate = useTranslate();
  const titleId = useId();
  const [label, setLabel] = useState('');
  const [isDefault, setIsDefault] = useState(false);
  const [touched, setTouched] = useState(false);
  const invalid = label.trim() === '';
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setTouched(true);
          if (!invalid) onSave(label.trim(), isDefault);
        }}
      >
        <DialogTitle id={titleId}>{translate('list.presets.create')}</DialogTitle>
        <DialogContent>
          <TextField
            autoFocus
            fullWidth
            required
            margin="dense"
            label={translate('list.presets.name')}
            value={label}
            onChange={(event) => setLabel(event.target.value)}
            error={touched && invalid}
            helperText={touched && invalid ? translate('ra.validation.required') : undefined}
            slotProps={{ htmlInput: { maxLength: 255 } }}
          />
          <FormControlLabel
            control={
              <Checkbox checked={isDefault} onChange={(event) => setIsDefault(event.target.checked)} />
            }
            label={translate('list.presets.default')}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{translate('ra.action.cancel')}</Button>
          <Button type="submit" variant="contained">
            {translate('ra.action.save')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
