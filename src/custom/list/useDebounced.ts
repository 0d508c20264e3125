import { useEffect, useMemo, useRef } from 'react';

export interface DebouncedCall<T> {
  (value: T): void;
  /** Drop a call that is waiting. */
  cancel(): void;
}

/** `fn` called `ms` after the last call, with that call's value; a waiting call is dropped on unmount. */
export function useDebounced<T>(fn: (value: T) => void, ms: number): DebouncedCall<T> {
  const state = useRef<{ timer?: ReturnType<typeof setTimeout>; fn: (value: T) => void }>({ fn });
  useEffect(() => {
    state.current.fn = fn;
  }, [fn]);
  useEffect(() => {
    const current = state.current;
    return () => clearTimeout(current.timer);
  }, []);
  return useMemo(() => {
    const call = (value: T) => {
      clearTimeout(state.current.timer);
      state.current.timer = setTimeout(() => state.current.fn(value), ms);
    };
    call.cancel = () => clearTimeout(state.current.timer);
    return call;
  }, [ms]);
}
