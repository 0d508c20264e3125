/** The list of the back office's keyboard shortcuts (issue 18 item 8), in the user's language. */
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useId } from 'react';
import { useTranslate } from 'react-admin';

/** Each group's keys and what they do (texts under workspace.shortcuts.actions). */
export const SHORTCUTS: { group: string; keys: [key: string, action: string][] }[] = [
  {
    group: 'everywhere',
    keys: [
      ['/', 'search'],
      ['?', 'help'],
    ],
  },
  {
    group: 'list',
    keys: [
      ['j', 'next'],
      ['k', 'previous'],
      ['Enter', 'open'],
    ],
  },
  {
    group: 'ticket',
    keys: [
      ['r', 'reply'],
      ['n', 'note'],
      ['c', 'close'],
      ['m', 'macros'],
    ],
  },
];

export default function ShortcutsDialog({ onClose }: { onClose: () => void }) {
  const translate = useTranslate();
  const titleId = useId();
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <DialogTitle id={titleId}>{translate('workspace.shortcuts.title')}</DialogTitle>
      {/* Focusable: on a small screen the list scrolls, and a keyboard must be able to scroll it. */}
      <DialogContent tabIndex={0}>
        {SHORTCUTS.map(({ group, keys }) => (
          <Table key={group} size="small" sx={{ mb: 2 }}>
            <caption style={{ captionSide: 'top', textAlign: 'left', padding: 0, fontWeight: 600 }}>
              {translate(`workspace.shortcuts.groups.${group}`)}
            </caption>
            <TableHead>
              <TableRow>
                <TableCell scope="col" sx={{ width: 96 }}>
                  {translate('workspace.shortcuts.key')}
                </TableCell>
                <TableCell scope="col">{translate('workspace.shortcuts.action')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {keys.map(([key, action]) => (
                <TableRow key={key}>
                  <TableCell>
                    <kbd>{key}</kbd>
                  </TableCell>
                  <TableCell>{translate(`workspace.shortcuts.actions.${action}`)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        ))}
        <Typography variant="body2" color="text.secondary">
          {translate('workspace.shortcuts.hint')}
        </Typography>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('workspace.shortcuts.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
