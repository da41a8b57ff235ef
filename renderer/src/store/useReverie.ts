import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { ReverieStore } from './store.js';
import type { ReverieState } from './types.js';

export const StoreContext = createContext<ReverieStore | null>(null);

/** Selects from the app store; select slices or primitives, not freshly built objects. */
export function useReverie<T>(selector: (state: ReverieState) => T): T {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useReverie must be used inside <StoreContext.Provider>.');
  return useStore(store, selector);
}

/** The store itself, for handlers that read the latest state when they run. */
export function useReverieStore(): ReverieStore {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useReverieStore must be used inside <StoreContext.Provider>.');
  return store;
}
