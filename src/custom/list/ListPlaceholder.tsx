import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import type { Resource } from '../../../common/schema/types.ts';
import { TABLE_MIN_HEIGHT } from './ListTable.tsx';
import { SKELETON_ROWS } from './MobileList.tsx';
import { usePluralName } from './usePluralName.ts';

/** The heading and skeleton rows while the user's identity loads. */
export function ListPlaceholder({ resource }: { resource: Resource }) {
  const title = usePluralName(resource);
  return (
    <Box sx={{ p: 2 }}>
      <Typography variant="h5" component="h1">
        {title}
      </Typography>
      <Box sx={{ minHeight: TABLE_MIN_HEIGHT }} aria-busy>
        {Array.from({ length: SKELETON_ROWS }, (_, i) => (
          <Skeleton key={i} variant="text" height={36} />
        ))}
      </Box>
    </Box>
  );
}
