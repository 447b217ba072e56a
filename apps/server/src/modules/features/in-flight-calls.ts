import { RESTART_RETRY_AFTER_SECONDS, SERVER_RESTARTING } from "@prism/contract";
import { AppError } from "../../errors";

/** One feature call running in this process, from its first byte to its answer. */
export interface TrackedCall {
  /** Aborted when a shutdown's deadline passes with the call still running. */
  readonly signal: AbortSignal;
  /** Records the call's request id once its price is reserved: an abandoned call is refunded by it. */
  reserved(requestId: string): void;
  /** The call answered (or failed); always called, once. */
  exit(): void;
}

interface Entry {
  controller: AbortController;
  requestId: string | undefined;
}

export interface DrainOutcome {
  /** Calls that finished on their own before the deadline. */
  finished: number;
  /** Request ids of reserved calls still running after the deadline and the unwind period. */
  abandoned: string[];
}

/** After the deadline aborts the stragglers, how long they get to refund themselves and answer. */
const UNWIND_MS = 5_000;

function serverRestarting(): AppError {
  return new AppError("service-unavailable", SERVER_RESTARTING, {
    headers: { "retry-after": String(RESTART_RETRY_AFTER_SECONDS) },
  });
}

/**
 * The feature calls this process is running, so that a graceful stop can refuse new ones, wait for the
 * running ones up to a deadline, stop the rest (their providers see the abort, and the gateway refunds
 * them like any failed call) and name whatever still has not unwound, for a direct refund.
 */
export class InFlightCalls {
  private readonly entries = new Set<Entry>();
  private accepting = true;
  private changed: (() => void) | undefined;

  get isAccepting(): boolean {
    return this.accepting;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Starts tracking a call; a 503 with Retry-After once the process is draining. */
  enter(): TrackedCall {
    if (!this.accepting) throw serverRestarting();
    const entry: Entry = { controller: new AbortController(), requestId: undefined };
    this.entries.add(entry);
    let exited = false;
    return {
      signal: entry.controller.signal,
      reserved: (requestId) => {
        entry.requestId = requestId;
      },
      exit: () => {
        if (exited) return;
        exited = true;
        this.entries.delete(entry);
        this.changed?.();
      },
    };
  }

  /** Refuses every new call from now on (a reservation made after this is refused as well). */
  stopAccepting(): void {
    this.accepting = false;
  }

  private async idleWithin(ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (this.entries.size > 0) {
      const left = deadline - Date.now();
      if (left <= 0) return false;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.changed = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.changed = undefined;
    }
    return true;
  }

  /**
   * Stops accepting, lets running calls finish within `deadlineMs`, then aborts the rest and gives them
   * a moment to unwind. Returns the request ids that are still open after that (the caller refunds
   * them: the process is about to exit).
   */
  async drain(deadlineMs: number, unwindMs = UNWIND_MS): Promise<DrainOutcome> {
    this.stopAccepting();
    const running = this.entries.size;
    if (await this.idleWithin(deadlineMs)) return { finished: running, abandoned: [] };
    const stragglers = this.entries.size;
    for (const entry of this.entries) entry.controller.abort(serverRestarting());
    await this.idleWithin(unwindMs);
    const abandoned = [...this.entries].flatMap((entry) => (entry.requestId ? [entry.requestId] : []));
    return { finished: running - stragglers, abandoned };
  }
}
