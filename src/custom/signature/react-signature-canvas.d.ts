/**
 * The package ships no types (1.0.7); this declares the part of its class the signature pad uses.
 * Under Vite 8 the default import can be the whole CommonJS module (STACK.md), hence `default?`.
 */
declare module 'react-signature-canvas' {
  import type { Component, CanvasHTMLAttributes } from 'react';

  export interface SignatureCanvasProps {
    penColor?: string;
    minWidth?: number;
    maxWidth?: number;
    velocityFilterWeight?: number;
    clearOnResize?: boolean;
    onEnd?: () => void;
    canvasProps?: CanvasHTMLAttributes<HTMLCanvasElement> & Record<`data-${string}`, string>;
  }

  /** signature_pad's stroke data: groups of points in CSS pixels. */
  export type SignaturePoints = { x: number; y: number; time: number; color: string }[][];

  export default class SignatureCanvas extends Component<SignatureCanvasProps> {
    clear(): void;
    isEmpty(): boolean;
    toDataURL(type?: string, encoderOptions?: number): string;
    toData(): SignaturePoints;
    fromData(points: SignaturePoints): void;
    getCanvas(): HTMLCanvasElement;
  }
}
