/**
 * A small signature pad (SPEC 5 and 9): a full-width canvas 200 px high drawn on with a black pen by
 * pointer events (mouse, touch and pen alike), a clear button and an accessible label. The parent reads
 * the drawing through the ref: `isEmpty()` and `toDataURL()` (a PNG data URL).
 */
import { useCallback, useEffect, useId, useImperativeHandle, useRef, type Ref } from 'react';
import { Box, Button, Typography } from '@mui/material';

/** SPEC 9: signature pen black, pad 200 px high. */
export const SIGNATURE_HEIGHT = 200;
export const SIGNATURE_PEN = '#000000';

export interface SignaturePadHandle {
  isEmpty(): boolean;
  toDataURL(): string;
  clear(): void;
}

export interface SignaturePadProps {
  label: string;
  hint?: string;
  clearLabel: string;
  ref?: Ref<SignaturePadHandle>;
}

export function SignaturePad({ label, hint, clearLabel, ref }: SignaturePadProps) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const drawn = useRef(false);
  const last = useRef<{ x: number; y: number } | null>(null);
  const labelId = useId();
  const hintId = useId();

  /** The canvas's pixel size follows its displayed width (sharp lines on any screen). */
  const fit = useCallback(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const ratio = window.devicePixelRatio || 1;
    const width = Math.max(1, Math.round(canvas.clientWidth * ratio));
    const height = Math.round(SIGNATURE_HEIGHT * ratio);
    if (canvas.width === width && canvas.height === height) return;
    // Resizing wipes the drawing: keep it scaled when there is one.
    const previous = drawn.current ? canvas.toDataURL('image/png') : null;
    canvas.width = width;
    canvas.height = height;
    const context = canvas.getContext('2d');
    if (context && previous) {
      const image = new Image();
      image.onload = () => context.drawImage(image, 0, 0, width, height);
      image.src = previous;
    }
  }, []);

  useEffect(() => {
    fit();
    const canvas = canvasRef.current;
    if (!canvas || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(fit);
    observer.observe(canvas);
    return () => observer.disconnect();
  }, [fit]);

  const clear = useCallback(() => {
    const canvas = canvasRef.current;
    canvas?.getContext('2d')?.clearRect(0, 0, canvas.width, canvas.height);
    drawn.current = false;
  }, []);

  useImperativeHandle(
    ref,
    () => ({
      isEmpty: () => !drawn.current,
      toDataURL: () => canvasRef.current?.toDataURL('image/png') ?? '',
      clear,
    }),
    [clear],
  );

  const point = (event: React.PointerEvent<HTMLCanvasElement>) => {
    const canvas = event.currentTarget;
    const box = canvas.getBoundingClientRect();
    return {
      x: ((event.clientX - box.left) * canvas.width) / box.width,
      y: ((event.clientY - box.top) * canvas.height) / box.height,
    };
  };

  const line = (from: { x: number; y: number }, to: { x: number; y: number }) => {
    const canvas = canvasRef.current;
    const context = canvas?.getContext('2d');
    if (!canvas || !context) return;
    context.strokeStyle = SIGNATURE_PEN;
    context.fillStyle = SIGNATURE_PEN;
    context.lineWidth = 2 * (window.devicePixelRatio || 1);
    context.lineCap = 'round';
    context.lineJoin = 'round';
    context.beginPath();
    context.moveTo(from.x, from.y);
    context.lineTo(to.x + (from.x === to.x && from.y === to.y ? 0.1 : 0), to.y);
    context.stroke();
    drawn.current = true;
  };

  return (
    <Box>
      <Typography id={labelId} component="p" variant="body2" sx={{ fontWeight: 500 }}>
        {label}
      </Typography>
      {hint && (
        <Typography id={hintId} component="p" variant="body2" color="text.secondary">
          {hint}
        </Typography>
      )}
      <Box
        component="canvas"
        ref={canvasRef}
        role="img"
        aria-labelledby={labelId}
        aria-describedby={hint ? hintId : undefined}
        data-testid="signature-pad"
        sx={{
          display: 'block',
          width: '100%',
          height: `${SIGNATURE_HEIGHT}px`,
          border: 1,
          borderColor: 'grey.600',
          borderRadius: 1,
          bgcolor: '#ffffff',
          touchAction: 'none',
          cursor: 'crosshair',
          my: 1,
        }}
        onPointerDown={(event: React.PointerEvent<HTMLCanvasElement>) => {
          event.currentTarget.setPointerCapture?.(event.pointerId);
          const p = point(event);
          last.current = p;
          line(p, p);
        }}
        onPointerMove={(event: React.PointerEvent<HTMLCanvasElement>) => {
          if (!last.current) return;
          const p = point(event);
          line(last.current, p);
          last.current = p;
        }}
        onPointerUp={() => {
          last.current = null;
        }}
        onPointerCancel={() => {
          last.current = null;
        }}
      />
      <Button variant="outlined" size="small" onClick={clear}>
        {clearLabel}
      </Button>
    </Box>
  );
}
