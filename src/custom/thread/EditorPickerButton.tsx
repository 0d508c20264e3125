/**
 * A button of the message editor that opens a picker dialog and puts what was picked in at the cursor
 * (standard answers, knowledge article links). The pick is handed on, or the focus given back to the
 * button, only once the dialog has gone: its focus trap would otherwise take the editor's focus and
 * selection with it. Shown only to a user who may list `resource`.
 */
import { useEffect, useRef, useState, type ComponentType, type ReactElement, type ReactNode } from 'react';
import { Button } from '@mui/material';
import { useCanAccess } from 'react-admin';

export interface PickerDialogProps {
  onClose: () => void;
  onPick: (html: string) => void;
}

/** `Dialog` gets `dialogProps` besides its close and pick callbacks. */
export function EditorPickerButton<P extends object>({
  resource,
  icon,
  label,
  disabled,
  onPick,
  Dialog,
  dialogProps,
}: {
  resource: string;
  icon: ReactElement;
  label: ReactNode;
  disabled?: boolean;
  onPick: (html: string) => void;
  Dialog: ComponentType<PickerDialogProps & P>;
  dialogProps: P;
}) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const after = useRef<(() => void) | null>(null);
  useEffect(() => {
    if (open || !after.current) return;
    const run = after.current;
    after.current = null;
    run();
  }, [open]);
  const { canAccess } = useCanAccess({ resource, action: 'list' });
  if (!canAccess) return null;
  const closeThen = (then: () => void) => {
    after.current = then;
    setOpen(false);
  };
  return (
    <>
      <Button
        ref={button}
        variant="outlined"
        startIcon={icon}
        disabled={disabled}
        aria-haspopup="dialog"
        // Keep the editor's selection: what is picked goes in where the cursor was.
        onMouseDown={(e) => e.preventDefault()}
        onClick={() => setOpen(true)}
      >
        {label}
      </Button>
      {open && (
        <Dialog
          {...dialogProps}
          onClose={() => closeThen(() => button.current?.focus())}
          onPick={(html: string) => closeThen(() => onPick(html))}
        />
      )}
    </>
  );
}
