/**
 * A record's generic detail (fields, edit in place where allowed) with its message thread below: the
 * ticket detail of both apps (SPEC 2). The detail and the thread read the same record (one query: the
 * same resource, id and relations).
 */
import { Box, Card, CardContent } from '@mui/material';
import { useGetOne, useResourceContext } from 'react-admin';
import { useParams } from 'react-router-dom';
import DetailScreen, { referencesOf } from '../detail/DetailScreen.tsx';
import { registry } from '../../schema.ts';
import { useAppKind } from '../appKind.ts';
import MessageThread from './MessageThread.tsx';

export default function DetailWithThread({ morphType }: { morphType: string }) {
  const name = useResourceContext()!;
  const resource = registry.require(name);
  const portal = useAppKind() === 'portal';
  const { id } = useParams<{ id: string }>();
  const { data: record } = useGetOne(
    name,
    { id: id!, meta: { with: referencesOf(resource, portal) } },
    { enabled: id !== undefined, retry: false }, // one query with ShowBase's: a 404 returns to the list at once
  );
  // The thread is the detail's child, so it shows together with the detail and its parts (an SLA
  // panel waits for its own call): shown before them, it would be pushed down when they arrive, and a
  // deep link's scroll to a message lost.
  return (
    <DetailScreen>
      {record && (
        <Box sx={{ px: { xs: 1, sm: 2 }, pb: 2 }}>
          <Card>
            <CardContent>
              <MessageThread
                morphType={morphType}
                record={record}
                description={typeof record.description === 'string' ? record.description : null}
              />
            </CardContent>
          </Card>
        </Box>
      )}
    </DetailScreen>
  );
}
