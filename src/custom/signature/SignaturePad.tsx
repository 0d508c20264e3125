/**
 * A small signature pad (SPEC 5 and 9): a full-width canvas 200 px high drawn on with a black pen, a
 * clear button and an accessible label. The strokes come from react-signature-canvas (signature_pad:
 * smoothed, pressure-like widths from the pen's speed, mouse and touch). The parent reads the drawing
 * through the ref: `isEmpty()` and `toDataURL()` (a PNG data URL).
 */
import { useCallback, useEffect, useId, useImperativeHandle, useRef, type Ref } from 'react';
import { Box, Button, Typography } from '@mui/material';
import SignatureCanvasImport from 'react-signature-canvas';

/** SPEC 9: signature pen black, pad 200 px high. */
export const SIGNATURE_HEIGHT = 200;
export const SIGNATURE_PEN = '#000000';

/** STACK.md: under Vite 8 the default import is the whole CommonJS module; the class is its `default`. */
const SignatureCanvas =
  (SignatureCanvasImport as unknown as { default?: typeof SignatureCanvasImport }).default ??
  SignatureCanvasImport;

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
  const padRef = useRef<InstanceType<typeof SignatureCanvas>>(null);
  const labelId = useId();
  const hintId = useId();

  /**
   * The canvas's pixel size follows its displayed width (sharp lines on any screen). The library's own
   * resize handling clears the drawing on every window resize (a phone turning sideways would lose the
   * signature), so it is off and this redraws the kept strokes at the new size instead.
   */
  const fit = useCallback(() => {
    const pad = padRef.current;
    if (!pad) return;
    const canvas = pad.getCanvas();
    const ratio = Math.max(window.devicePixelRatio || 1, 1);
    const width = Math.max(1, Math.round(canvas.offsetWidth * ratio));
    const height = Math.round(SIGNATURE_HEIGHT * ratio);
    if (canvas.width === width && canvas.height === height) return;
    const strokes = pad.toData();
    canvas.width = width;
    canvas.height = height;
    canvas.getContext('2d')?.scale(ratio, ratio);
    if (strokes.length > 0) pad.fromData(strokes);
    else pad.clear();
  }, []);

  useEffect(() => {
    fit();
    const canvas = padRef.current?.getCanvas();
    if (!canvas || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(fit);
    observer.observe(canvas);
    return () => observer.disconnect();
  }, [fit]);

  const clear = useCallback(() => padRef.current?.clear(), []);

  useImperativeHandle(
    ref,
    () => ({
      isEmpty: () => padRef.current?.isEmpty() ?? true,
      toDataURL: () => padRef.current?.toDataURL('image/png') ?? '',
      clear,
    }),
    [clear],
  );

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
      {/* The border sits on the frame, not the canvas: signature_pad maps the pointer from the canvas's
          box, and a border inside that box would shift every stroke by its width. */}
      <Box
        sx={{
          border: 1,
          borderColor: 'grey.600',
          borderRadius: 1,
          bgcolor: '#ffffff',
          overflow: 'hidden',
          my: 1,
        }}
      >
        <SignatureCanvas
          ref={padRef}
          penColor={SIGNATURE_PEN}
          clearOnResize={false}
          canvasProps={{
            role: 'img',
            'aria-labelledby': labelId,
            'aria-describedby': hint ? hintId : undefined,
            'data-testid': 'signature-pad',
            style: {
              display: 'block',
              width: '100%',
              height: `${SIGNATURE_HEIGHT}px`,
              touchAction: 'none',
              cursor: 'crosshair',
            },
          }}
        />
      </Box>
      <Button variant="outlined" size="small" onClick={clear}>
        {clearLabel}
      </Button>
    </Box>
  );
}
