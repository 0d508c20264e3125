/**
 * The edge of a list column's header that sizes the column (issue 37, item 5): dragged with the mouse
 * (or a finger), the column follows and is kept when let go; focused, the arrow keys make it narrower or
 * wider (Shift: four steps), Home or a double click give it back its schema's width. A focusable
 * separator with its value, as ARIA's window splitter: a screen reader says which column and how wide.
 */
import { useRef, type KeyboardEvent, type PointerEvent } from 'react';
import Box from '@mui/material/Box';
import { clampColumnPx, KEY_STEP_PX, MAX_COLUMN_PX, MIN_COLUMN_PX } from './columnWidths.ts';

export interface ColumnResizeHandleProps {
  /** The separator's name: which column it sizes. */
  label: string;
  /** The column's width now, in pixels. */
  width: number;
  /** While dragging: the width to show, not kept yet. */
  onPreview: (px: number) => void;
  /** The width to keep; undefined: back to the schema's. */
  onCommit: (px: number | undefined) => void;
}

export function ColumnResizeHandle({ label, width, onPreview, onCommit }: ColumnResizeHandleProps) {
  const drag = useRef<{ x: number; width: number; px: number } | null>(null);
  const widthAt = (event: PointerEvent<HTMLElement>) =>
    clampColumnPx(drag.current!.width + event.clientX - drag.current!.x);

  const onPointerDown = (event: PointerEvent<HTMLElement>) => {
    if (event.button !== 0) return;
    event.preventDefault();
    event.stopPropagation();
    event.currentTarget.setPointerCapture(event.pointerId);
    // From the header cell's own width: what the user sees is where the drag starts.
    const cell = event.currentTarget.parentElement?.getBoundingClientRect().width ?? width;
    drag.current = { x: event.clientX, width: cell, px: cell };
  };
  const onPointerMove = (event: PointerEvent<HTMLElement>) => {
    if (!drag.current) return;
    drag.current.px = widthAt(event);
    onPreview(drag.current.px);
  };
  const onPointerUp = (event: PointerEvent<HTMLElement>) => {
    if (!drag.current) return;
    const moved = event.clientX !== drag.current.x;
    const px = widthAt(event);
    drag.current = null;
    // A click without a move sizes nothing (it may be the first of a double click).
    if (moved) onCommit(px);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    const step = KEY_STEP_PX * (event.shiftKey ? 4 : 1);
    const next =
      event.key === 'ArrowLeft' ? width - step : event.key === 'ArrowRight' ? width + step : undefined;
    if (next !== undefined) onCommit(clampColumnPx(next));
    else if (event.key === 'Home') onCommit(undefined);
    else return;
    event.preventDefault();
    event.stopPropagation();
  };

  return (
    <Box
      role="separator"
      aria-orientation="vertical"
      aria-label={label}
      aria-valuenow={Math.round(width)}
      aria-valuemin={MIN_COLUMN_PX}
      aria-valuemax={MAX_COLUMN_PX}
      tabIndex={0}
      data-testid="column-resize"
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={() => (drag.current = null)}
      onDoubleClick={() => onCommit(undefined)}
      onClick={(event) => event.stopPropagation()}
      onKeyDown={onKeyDown}
      sx={{
        position: 'absolute',
        top: 0,
        // Inside the cell (one sticking out would make the table scroll sideways).
        right: 0,
        width: 8,
        height: '100%',
        zIndex: 1,
        cursor: 'col-resize',
        touchAction: 'none',
        // A line shows where it is on hover and focus; at rest the columns' own borders do.
        '&::after': {
          content: '""',
          position: 'absolute',
          top: 6,
          bottom: 6,
          right: 0,
          width: '1px',
          bgcolor: 'divider',
        },
        '&:hover::after, &:focus-visible::after': { width: 3, bgcolor: 'primary.main' },
        '&:focus-visible': { outline: 'none' },
      }}
    />
  );
}
