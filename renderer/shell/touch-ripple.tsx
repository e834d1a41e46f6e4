import { forwardRef, useEffect, useState, type ComponentType, type RefAttributes } from 'react';
import type { TouchRippleActions, TouchRippleProps } from '@mui/material/ButtonBase/TouchRipple';
import { lazyModule } from '../../widgets/retry-import';

type Ripple = ComponentType<TouchRippleProps & RefAttributes<TouchRippleActions>>;

const ripple = lazyModule<Ripple>(() =>
  import('@mui/material/ButtonBase/TouchRipple').then((m) => m.default as unknown as Ripple),
);

/**
 * Fetches MUI's TouchRipple (≈2 KB gzip with its keyframes): the page asks for it at the owner's first touch
 * or key (shell/first-input.ts), and a button's ripple at its first press. Never rejects: a ripple that could
 * not load is left out (the theme's focus ring stays, renderer/shell/theme.ts).
 */
export function loadTouchRipple(): Promise<void> {
  return ripple.load().then(
    () => undefined,
    () => undefined,
  );
}

/**
 * What MUI's ButtonBase draws as its TouchRipple in this build (vite.config.ts `lazyTouchRipple`): MUI's own
 * TouchRipple once its chunk is here, nothing before. ButtonBase mounts its ripple only at a button's first
 * press or keyboard focus (MUI's useLazyRipple), so the first page carries no ripple code (issue 13 item 2);
 * a press made before the chunk arrived shows no ripple, the next ones do.
 */
const LazyTouchRipple = forwardRef<TouchRippleActions, TouchRippleProps>(
  function LazyTouchRipple(props, ref) {
    const [Loaded, setLoaded] = useState<Ripple | null>(() => ripple.loaded());
    useEffect(() => {
      if (Loaded) return;
      let live = true;
      void loadTouchRipple().then(() => {
        const arrived = ripple.loaded();
        if (live && arrived) setLoaded(() => arrived);
      });
      return () => {
        live = false;
      };
    }, [Loaded]);
    return Loaded ? <Loaded ref={ref} {...props} /> : null;
  },
);

export default LazyTouchRipple;
