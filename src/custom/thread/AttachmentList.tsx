/**
 * A message's files (SPEC 9): the name as a download link, an icon by extension (images, pdf, office,
 * audio, video, archive, code, text; a plain file icon otherwise) and the size in units of 1024. Inline
 * images (`is_embedded`) are shown in the text itself and are not listed again.
 */
import { Box, List, ListItem, ListItemIcon, ListItemText, Link, Typography } from '@mui/material';
import type { SvgIconComponent } from '@mui/icons-material';
import ImageIcon from '@mui/icons-material/Image';
import PictureAsPdf from '@mui/icons-material/PictureAsPdf';
import Description from '@mui/icons-material/Description';
import AudioFile from '@mui/icons-material/AudioFile';
import VideoFile from '@mui/icons-material/VideoFile';
import FolderZip from '@mui/icons-material/FolderZip';
import Code from '@mui/icons-material/Code';
import TextSnippet from '@mui/icons-material/TextSnippet';
import InsertDriveFile from '@mui/icons-material/InsertDriveFile';
import { useLocaleState, useTranslate } from 'react-admin';
import { formatFileSize } from '../../../common/format.ts';
import { fileKind, type Attachment, type FileKind } from './helpers.ts';

const ICONS: Record<FileKind, SvgIconComponent> = {
  image: ImageIcon,
  pdf: PictureAsPdf,
  office: Description,
  audio: AudioFile,
  video: VideoFile,
  archive: FolderZip,
  code: Code,
  text: TextSnippet,
};

export function FileIcon({ attachment }: { attachment: Attachment }) {
  const kind = fileKind(attachment.extension || attachment.name);
  const Icon = kind ? ICONS[kind] : InsertDriveFile;
  return <Icon fontSize="small" data-kind={kind ?? 'file'} aria-hidden="true" />;
}

export default function AttachmentList({
  attachments,
  headingId,
}: {
  attachments: Attachment[];
  headingId: string;
}) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const files = attachments.filter((a) => !a.is_embedded);
  if (files.length === 0) return null;
  return (
    <Box sx={{ mt: 1 }}>
      <Typography id={headingId} variant="body2" component="p" color="text.secondary">
        {translate('app.messages.attachments')}
      </Typography>
      <List dense disablePadding aria-labelledby={headingId}>
        {files.map((file) => (
          <ListItem key={file.id} disableGutters data-testid="attachment">
            <ListItemIcon sx={{ minWidth: 32 }}>
              <FileIcon attachment={file} />
            </ListItemIcon>
            <ListItemText
              primary={
                file.url ? (
                  <Link href={file.url} download={file.name} underline="hover">
                    {file.name}
                  </Link>
                ) : (
                  file.name
                )
              }
              secondary={formatFileSize(file.size, locale)}
              slotProps={{ secondary: { sx: { color: 'text.secondary' } } }}
            />
          </ListItem>
        ))}
      </List>
    </Box>
  );
}
