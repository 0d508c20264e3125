import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import { useTranslate } from 'react-admin';
import { listViews } from './listViews.ts';
import type { ListScreenController } from './ListScreenController.ts';

/** A switch per list view of the resource (./listViews.ts): its rows instead of the list's own. */
export function ListViewSwitches({ views, list }: { views: string[]; list: ListScreenController }) {
  const translate = useTranslate();
  if (views.length === 0) return null;
  return (
    <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
      {views.map((view) => (
        <FormControlLabel
          key={view}
          control={
            <Switch
              checked={list.listView === view}
              onChange={(event) => list.setListView(event.target.checked ? view : undefined)}
            />
          }
          label={translate(listViews[view]!.label)}
        />
      ))}
    </Box>
  );
}
