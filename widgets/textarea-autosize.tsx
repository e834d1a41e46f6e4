import { forwardRef, lazy } from 'react';
import type { TextareaAutosizeProps } from '@mui/material/TextareaAutosize';
import { lazyModule } from './retry-import';

type Textarea = typeof import('@mui/material/TextareaAutosize').default;

const textarea = lazyModule<Textarea>(() => import('@mui/material/TextareaAutosize').then((m) => m.default));

/**
 * Fetches MUI's TextareaAutosize (SPEC §4 retries); resolves once it is here, rejects when every try failed. The
 * chunks that draw a multiline field load it with themselves (widgets/input/lazy-kinds.tsx, the support chat's
 * launcher), so the field is drawn whole in their first render.
 */
export function loadTextareaAutosize(): Promise<void> {
  return textarea.load().then(() => undefined);
}

/**
 * What MUI's InputBase draws as the textarea of a multiline field in this build (vite.config.ts
 * `lazyTextareaAutosize`): MUI's own TextareaAutosize, from a chunk of its own. No field of the first page is
 * multiline, so the page does not carry it (issue 13 item 2). Drawn before its chunk has come, the field waits
 * for it (suspends) under its widget's placeholder; a chunk that failed every try leaves the widget's error
 * boundary to draw its fallback.
 */
const LazyTextareaAutosize = forwardRef<HTMLTextAreaElement, TextareaAutosizeProps>(
  function LazyTextareaAutosize(props, ref) {
    const Loaded = textarea.loaded();
    return Loaded ? <Loaded ref={ref} {...props} /> : <Arriving ref={ref} {...props} />;
  },
);

/** MUI's TextareaAutosize as it arrives (React.lazy: the tree suspends until then). */
const Arriving = lazy(() => textarea.load().then((loaded) => ({ default: loaded })));

export default LazyTextareaAutosize;
