import { createTheme, type Theme } from '@mui/material/styles';
import type { Direction } from '../i18n/languages';

/**
 * The app's MUI theme, mobile-first, for a writing direction (Arabic: 'rtl', used with the RTL emotion cache
 * of renderer/i18n/direction.ts). Colours meet WCAG AA contrast on white (primary #B3132E: 6.9:1); every
 * focusable element shows a visible focus ring. Storybook uses the same function.
 */
export function createAppTheme(direction: Direction): Theme {
  return createTheme({
    direction,
    palette: {
      mode: 'light',
      primary: { main: '#B3132E', contrastText: '#FFFFFF' },
      secondary: { main: '#1F2A44', contrastText: '#FFFFFF' },
      error: { main: '#B3261E' },
      warning: { main: '#8A5300' },
      success: { main: '#1E6B35' },
      info: { main: '#1D4F91' },
      text: { primary: '#1A1A1A', secondary: '#555555' },
      background: { default: '#FFFFFF', paper: '#FFFFFF' },
    },
    shape: { borderRadius: 8 },
    typography: {
      fontFamily:
        'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans Arabic", Arial, sans-serif',
      button: { textTransform: 'none', fontWeight: 600 },
    },
    components: {
      MuiButtonBase: {
        styleOverrides: {
          root: {
            '&.Mui-focusVisible': { outline: '3px solid #1D4F91', outlineOffset: 2 },
          },
        },
      },
      MuiButton: {
        defaultProps: { disableElevation: true },
        styleOverrides: { root: { minHeight: 48 } },
      },
      MuiLink: {
        styleOverrides: { root: { '&:focus-visible': { outline: '3px solid #1D4F91', outlineOffset: 2 } } },
      },
    },
  });
}
