import { useSyncExternalStore } from "react";

// Whether an invitation is being checked or answered right now. The invitation flow consumes the
// invitationId cookie as it starts, so this flag is what tells the rest of the shell (the welcome
// popup) to wait until the invitee has decided.
let answering = false;
const listeners = new Set<() => void>();

export function setAnsweringInvitation(value: boolean): void {
  if (answering === value) return;
  answering = value;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useAnsweringInvitation(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => answering,
    () => false,
  );
}
