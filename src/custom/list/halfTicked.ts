/**
 * A page's select-all checkbox when some of its rows are ticked. MUI draws the half-ticked box and writes
 * aria-checked="mixed" on the native checkbox, but leaves the input's own `indeterminate` property
 * false (React has no attribute for it): browsers then report the box as not ticked, and axe refuses an
 * aria-checked that contradicts the input's state. Setting the property makes both say "mixed".
 */
export function halfTickedRef(halfTicked: boolean): (input: HTMLInputElement | null) => void {
  return (input) => {
    if (input) input.indeterminate = halfTicked;
  };
}
