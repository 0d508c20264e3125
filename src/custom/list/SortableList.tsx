/**
 * A vertical list reordered by dragging a handle, with the mouse, touch or the keyboard (space or enter
 * picks up, arrows move, space or enter drops, escape cancels); announcements are translated.
 */
import type { ReactNode } from 'react';
import {
  DndContext,
  KeyboardSensor,
  PointerSensor,
  closestCenter,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
  type UniqueIdentifier,
} from '@dnd-kit/core';
import {
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import DragIndicator from '@mui/icons-material/DragIndicator';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import { useTranslate } from 'react-admin';

export interface SortableListProps<T> {
  items: readonly T[];
  getId: (item: T) => string;
  /** The item's name in announcements and the handle's label. */
  getLabel: (item: T) => string;
  /** A drop: move `active` to where `over` is. */
  onMove: (active: string, over: string) => void;
  /** The row's content after its drag handle. */
  renderItem: (item: T) => ReactNode;
  'aria-label'?: string;
}

export function SortableList<T>({
  items,
  getId,
  getLabel,
  onMove,
  renderItem,
  ...rest
}: SortableListProps<T>) {
  const translate = useTranslate();
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const ids = items.map(getId);
  const labelOf = (id: UniqueIdentifier | undefined) => {
    const item = items.find((i) => getId(i) === String(id));
    return item ? getLabel(item) : String(id ?? '');
  };
  const announcements: Announcements = {
    onDragStart: ({ active }) => translate('list.dnd.picked_up', { item: labelOf(active.id) }),
    onDragOver: ({ active, over }) =>
      over
        ? translate('list.dnd.moved_over', { item: labelOf(active.id), over: labelOf(over.id) })
        : translate('list.dnd.not_over', { item: labelOf(active.id) }),
    onDragEnd: ({ active, over }) =>
      over
        ? translate('list.dnd.dropped_over', { item: labelOf(active.id), over: labelOf(over.id) })
        : translate('list.dnd.dropped', { item: labelOf(active.id) }),
    onDragCancel: ({ active }) => translate('list.dnd.cancelled', { item: labelOf(active.id) }),
  };
  const handleDragEnd = ({ active, over }: DragEndEvent) => {
    if (over && active.id !== over.id) onMove(String(active.id), String(over.id));
  };
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={handleDragEnd}
      accessibility={{
        announcements,
        screenReaderInstructions: { draggable: translate('list.dnd.instructions') },
      }}
    >
      <SortableContext items={ids} strategy={verticalListSortingStrategy}>
        <List dense aria-label={rest['aria-label']}>
          {items.map((item) => (
            <SortableRow key={getId(item)} id={getId(item)} label={getLabel(item)}>
              {renderItem(item)}
            </SortableRow>
          ))}
        </List>
      </SortableContext>
    </DndContext>
  );
}

function SortableRow({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  const translate = useTranslate();
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } =
    useSortable({
      id,
    });
  return (
    <ListItem
      ref={setNodeRef}
      disableGutters
      sx={{
        gap: 1,
        transform: CSS.Transform.toString(transform),
        transition,
        position: 'relative',
        zIndex: isDragging ? 1 : undefined,
        bgcolor: isDragging ? 'action.selected' : undefined,
      }}
    >
      <IconButton
        ref={setActivatorNodeRef}
        size="small"
        {...attributes}
        {...listeners}
        aria-label={translate('list.dnd.handle', { item: label })}
        sx={{ cursor: isDragging ? 'grabbing' : 'grab', touchAction: 'none' }}
      >
        <DragIndicator fontSize="small" />
      </IconButton>
      {children}
    </ListItem>
  );
}
