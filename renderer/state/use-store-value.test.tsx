import { act, render, screen } from '@testing-library/react';
import { Provider as JotaiProvider, atom, createStore, useStore } from 'jotai';
import { useLayoutEffect, type ReactElement } from 'react';
import { describe, expect, it } from 'vitest';
import { useStoreValue } from './use-store-value';

const countAtom = atom(0);

function setup(extra?: ReactElement) {
  const store = createStore();
  let renders = 0;
  function Reader(): ReactElement {
    renders += 1;
    return <p>count {useStoreValue(countAtom)}</p>;
  }
  render(
    <JotaiProvider store={store}>
      <Reader />
      {extra}
    </JotaiProvider>,
  );
  return { store, renders: () => renders };
}

describe('useStoreValue', () => {
  it('draws once at mount when nothing changed (no second, blocking draw after the first paint)', () => {
    const { renders } = setup();
    expect(screen.getByText('count 0')).toBeTruthy();
    expect(renders()).toBe(1);
  });

  it('draws again when the atom changes, and not when it is set to the same value', () => {
    const { store, renders } = setup();
    act(() => store.set(countAtom, 0));
    expect(renders()).toBe(1);
    act(() => store.set(countAtom, 2));
    expect(screen.getByText('count 2')).toBeTruthy();
    expect(renders()).toBe(2);
  });

  it('catches a change made between its draw and its subscription', () => {
    function Writer(): null {
      const store = useStore();
      useLayoutEffect(() => store.set(countAtom, 5), [store]);
      return null;
    }
    setup(<Writer />);
    expect(screen.getByText('count 5')).toBeTruthy();
  });
});
