import { defaultTheme, type RaThemeOptions } from 'react-admin';

/** react-admin's default theme, with colours that pass WCAG AA contrast on white and on the app bar. */
export const theme: RaThemeOptions = {
  ...defaultTheme,
  palette: {
    primary: { main: '#1a4f8b' },
    secondary: { main: '#1a4f8b' },
    text: { primary: 'rgba(0, 0, 0, 0.87)', secondary: 'rgba(0, 0, 0, 0.70)' },
  },
};
