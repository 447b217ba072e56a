import { useSyncExternalStore } from "react";

// A counter rather than a flag: overlapping operations each show and hide once, and the overlay
// stays up until the last one ends.
let pending = 0;
const listeners = new Set<() => void>();

function emit(): void {
  for (const listener of listeners) listener();
}

export function showLoading(): void {
  pending += 1;
  emit();
}

export function hideLoading(): void {
  pending = Math.max(0, pending - 1);
  emit();
}

/** Shows the overlay for the duration of `work`, whether it succeeds or fails. */
export async function withLoading<T>(work: () => Promise<T>): Promise<T> {
  showLoading();
  try {
    return await work();
  } finally {
    hideLoading();
  }
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useIsLoading(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => pending > 0,
    () => false,
  );
}
