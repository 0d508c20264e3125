import { defaultTheme, type RaThemeOptions } from 'react-admin';

/** react-admin's default theme, with colours that pass WCAG AA contrast on white and on the app bar. */
export const theme: RaThemeOptions = {
  ...defaultTheme,
  palette: {
    primary: { main: '#1a4f8b' },
    secondary: { main: '#1a4f8b' },
    // MUI's red (#d32f2f) falls under 4.5:1 on a focused filled input; this one stays above it.
    error: { main: '#b71c1c' },
    // MUI's orange (#ed6c02) gives white text 3.1:1 in a warning toast; this one 5.0:1.
    warning: { main: '#b45309' },
    text: { primary: 'rgba(0, 0, 0, 0.87)', secondary: 'rgba(0, 0, 0, 0.70)' },
  },
  components: {
    ...defaultTheme.components,
    // A field the server refused with several lines shows each on a line of its own (shell/errors.ts).
    MuiFormHelperText: { styleOverrides: { root: { whiteSpace: 'pre-line' } } },
  },
};
