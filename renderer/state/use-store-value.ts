import { useCallback, useEffect, useState } from 'react';
import { useStore, type Atom } from 'jotai';

/**
 * `read()`, re-rendering the caller when `subscribe` reports a change that makes `read()` return another
 * value (`Object.is`). A change made between the draw and the subscription is caught when subscribing.
 *
 * State is kept with `useState`, whose setter compares at once and schedules nothing when the value is the same.
 * jotai's `useAtomValue` keeps it with `useReducer` instead, which React 19 always renders again, and it checks
 * once more after subscribing: right after the first paint every component reading an atom rendered again
 * in one blocking task (each widget slot twice, the page, the screen, the toasts…; Total Blocking Time on
 * Lighthouse's 4× slower phone, issue 13 item 4). A change reported inside `startTransition` (global info,
 * renderer/shell/session.ts) is drawn as a transition, as with jotai.
 *
 * `read` and `subscribe` should keep their identity (useCallback); when they change, the next draw reads anew.
 */
export function useExternalValue<T>(read: () => T, subscribe: (changed: () => void) => () => void): T {
  const [held, setHeld] = useState(() => ({ value: read(), read }));
  useEffect(() => {
    const changed = () =>
      setHeld((prev) => {
        const value = read();
        return prev.read === read && Object.is(prev.value, value) ? prev : { value, read };
      });
    const stop = subscribe(changed);
    changed();
    return stop;
  }, [read, subscribe]);
  return held.read === read ? held.value : read();
}

/**
 * The value of `atom` in the jotai store of the nearest Provider, re-rendering the caller when it changes
 * ({@link useExternalValue}; the app's replacement of jotai's `useAtomValue`). Synchronous atoms only (no
 * promise values).
 */
export function useStoreValue<T>(atom: Atom<T>): T {
  const store = useStore();
  const read = useCallback(() => store.get(atom), [store, atom]);
  const subscribe = useCallback((changed: () => void) => store.sub(atom, changed), [store, atom]);
  return useExternalValue(read, subscribe);
}
