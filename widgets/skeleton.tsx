import { keyframes } from '@emotion/react';
import Box from '@mui/material/Box';
import type { HTMLAttributes, ReactElement } from 'react';

/** MUI Skeleton's pulse: opacity 1 → 0.4 → 1. */
const pulse = keyframes({ '0%': { opacity: 1 }, '50%': { opacity: 0.4 }, '100%': { opacity: 1 } });

/** Props of {@link Skeleton}: its size (px, or a CSS length for `width`) and the attributes of its element. */
export interface SkeletonProps extends HTMLAttributes<HTMLSpanElement> {
  /** Height in px. */
  height: number;
  /** Width: px or a CSS length; the whole line by default. */
  width?: number | string;
  /** data-* attributes tests and styles look for. */
  [data: `data-${string}`]: string | undefined;
}

/**
 * The grey pulsing block that stands where something is still loading, drawn as MUI's rounded Skeleton looks
 * (rgba(0, 0, 0, 0.11), 4 px corners, a 2 s pulse, still with reduced motion) without its code in every page
 * (issue 13 item 2). Give it `role="status"`, `aria-busy` and a label where it stands for a whole part.
 */
export function Skeleton({ height, width = '100%', ...attributes }: SkeletonProps): ReactElement {
  return (
    <Box
      component="span"
      {...attributes}
      sx={{
        display: 'block',
        width,
        height,
        borderRadius: 1,
        bgcolor: 'rgba(0, 0, 0, 0.11)',
        animation: `${pulse} 2s ease-in-out 0.5s infinite`,
        '@media (prefers-reduced-motion: reduce)': { animation: 'none' },
      }}
    />
  );
}
