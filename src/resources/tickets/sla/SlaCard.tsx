/**
 * What the SLA panel and the portal's promise share: their card (a section named by its heading, below
 * the ticket's fields) and the coloured pill of the SPEC 4 badges (src/custom/detail/DateBadge.tsx), so
 * a breached target reads as a past due date does.
 */
import { useId, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { BADGE_PILL, COLOURS } from '../../../custom/detail/DateBadge.tsx';

export function SlaPill({ colour, children }: { colour: keyof typeof COLOURS; children: ReactNode }) {
  return (
    <Box component="span" data-sla-pill={colour} sx={{ ...COLOURS[colour], ...BADGE_PILL }}>
      {children}
    </Box>
  );
}

export function SlaCard({ title, testId, children }: { title: string; testId: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <Card component="section" aria-labelledby={headingId} data-testid={testId} sx={{ mt: 2 }}>
      <CardContent>
        <Typography id={headingId} variant="h6" component="h2" sx={{ mb: 1 }}>
          {title}
        </Typography>
        {children}
      </CardContent>
    </Card>
  );
}
