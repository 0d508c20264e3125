/** Page buttons (first, last, current ± 2, ellipsis) and a page-jump input that ignores empty values. */
import { useState } from 'react';
import ChevronLeft from '@mui/icons-material/ChevronLeft';
import ChevronRight from '@mui/icons-material/ChevronRight';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import { useListPaginationContext, useTranslate } from 'react-admin';
import { ToolButton } from './ListToolbar.tsx';
import { lastPageOf, pageItems, pageJumpTarget } from './pageItems.ts';

export interface ListPaginationProps {
  page: number;
  lastPage: number;
  onPage: (page: number) => void;
  /** Fewer buttons on a phone. */
  compact?: boolean;
}

export function ListPagination({ page, lastPage, onPage, compact }: ListPaginationProps) {
  const translate = useTranslate();
  const [jump, setJump] = useState('');
  const go = (target: number) => {
    if (target !== page && target >= 1 && target <= lastPage) onPage(target);
  };
  return (
    <Box
      component="nav"
      aria-label={translate('list.pagination.label')}
      sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 0.5, py: 1 }}
    >
      <ToolButton
        size="small"
        label={translate('list.pagination.previous')}
        icon={<ChevronLeft />}
        disabled={page <= 1}
        onClick={() => go(page - 1)}
      />
      {pageItems(page, lastPage).map((item, index) =>
        item === 'ellipsis' ? (
          <Box key={`ellipsis-${index}`} component="span" aria-hidden sx={{ px: 0.5, color: 'text.primary' }}>
            …
          </Box>
        ) : (
          <Button
            key={item}
            size="small"
            variant={item === page ? 'contained' : 'text'}
            aria-current={item === page ? 'page' : undefined}
            aria-label={translate('list.pagination.page', { page: item })}
            onClick={() => go(item)}
            sx={{ minWidth: compact ? 32 : 40, px: 1 }}
          >
            {item}
          </Button>
        ),
      )}
      <ToolButton
        size="small"
        label={translate('list.pagination.next')}
        icon={<ChevronRight />}
        disabled={page >= lastPage}
        onClick={() => go(page + 1)}
      />
      <Box
        component="form"
        sx={{ ml: compact ? 0 : 2 }}
        onSubmit={(event) => {
          event.preventDefault();
          const target = pageJumpTarget(jump, lastPage);
          // An empty value is ignored (SPEC 2).
          if (target === null) return;
          go(target);
          setJump('');
        }}
      >
        <TextField
          size="small"
          value={jump}
          onChange={(event) => setJump(event.target.value.replace(/\D/g, ''))}
          sx={{ width: 88 }}
          placeholder={translate('list.pagination.jump_placeholder')}
          slotProps={{ htmlInput: { 'aria-label': translate('list.pagination.jump'), inputMode: 'numeric' } }}
        />
      </Box>
    </Box>
  );
}

/** The pagination of the list in react-admin's list context (the list screen's controller). */
export function ListContextPagination({ compact }: { compact?: boolean }) {
  const { page, perPage, total, setPage } = useListPaginationContext();
  return (
    <ListPagination
      page={page}
      lastPage={lastPageOf(total ?? 0, perPage)}
      onPage={setPage}
      compact={compact}
    />
  );
}
