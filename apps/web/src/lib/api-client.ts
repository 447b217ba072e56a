import {
  type CallDefinition,
  type CallRequest,
  type CallResponse,
  type CallRoute,
  type CallRoutesOf,
  callRoutes,
  type calls,
  DEFAULT_CALL_TIMEOUT_MS,
  type ErrorCode,
  isErrorBody,
} from "@prism/contract";

/** Codes the client itself produces when no error body came back from the server. */
export type ClientErrorCode = "network-error" | "timeout" | "aborted" | "invalid-response" | "http-error";

/**
 * Every failed call rejects with this. `status` is the HTTP status, or 0 when no response arrived
 * (network failure, timeout, abort); `code` is the server's error code or a client code.
 */
export class ApiError extends Error {
  override readonly name = "ApiError";

  constructor(
    readonly status: number,
    readonly code: ErrorCode | ClientErrorCode,
    message: string,
    /** The request field the server's refusal is about (ErrorBody.field), when it names one. */
    readonly field?: string,
  ) {
    super(message);
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

export interface CallOptions {
  /** Cancels the call, e.g. TanStack Query's signal when a query is no longer needed. */
  signal?: AbortSignal;
}

/** `path` is the called endpoint: a console call's or a feature's. */
type UnauthorizedHandler = (error: ApiError, path: string) => void;

let unauthorizedHandler: UnauthorizedHandler | null = null;

/**
 * The one place a 401 is handled: the session provider registers a handler that signs the user out.
 * Public calls never reach it, so a 401 "Invalid password" from users/login stays a form error.
 * Returns an unregister function.
 */
export function setUnauthorizedHandler(handler: UnauthorizedHandler): () => void {
  unauthorizedHandler = handler;
  return () => {
    if (unauthorizedHandler === handler) unauthorizedHandler = null;
  };
}

/** Asks the user for a sign-in proof; resolves true once the session holds a fresh one. */
type ReauthenticationHandler = () => Promise<boolean>;

let reauthenticationHandler: ReauthenticationHandler | null = null;

/**
 * The one place a sensitive call's 403 `reauthentication-required` is handled (decision 020): the
 * signed-in shell registers a handler that asks for the password, a code or a passkey in a dialog, and
 * the refused call is then sent again as it was, so every screen carries on with what the user asked
 * for. Without a handler, or when the user cancels, the call fails with that 403. Returns an unregister
 * function.
 */
export function setReauthenticationHandler(handler: ReauthenticationHandler): () => void {
  reauthenticationHandler = handler;
  return () => {
    if (reauthenticationHandler === handler) reauthenticationHandler = null;
  };
}

function combineSignals(timeout: AbortSignal, external: AbortSignal | undefined): AbortSignal {
  if (!external) return timeout;
  if (typeof AbortSignal.any === "function") return AbortSignal.any([timeout, external]);
  const controller = new AbortController();
  const forward = (source: AbortSignal) => () => controller.abort(source.reason);
  timeout.addEventListener("abort", forward(timeout), { once: true });
  external.addEventListener("abort", forward(external), { once: true });
  return controller.signal;
}

function transportError(error: unknown, timeout: AbortSignal): ApiError {
  if (timeout.aborted) return new ApiError(0, "timeout", "The request timed out. Please try again.");
  if (error instanceof DOMException && error.name === "AbortError") {
    return new ApiError(0, "aborted", "The request was cancelled.");
  }
  return new ApiError(0, "network-error", "The server could not be reached. Please check your connection.");
}

/** A body that is not JSON (an error page from a proxy, a cut-off answer). */
const UNREADABLE = Symbol("unreadable");

/** The body as JSON; `undefined` when it is empty. */
async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return UNREADABLE;
  }
}

interface ResponseSchema<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false };
}

/** One request of the console's: how it is sent, bounded, refused and checked. */
export interface Exchange<T> {
  path: string;
  /** POST unless said otherwise (following a call is a GET). */
  method?: "GET" | "POST";
  headers: Record<string, string>;
  body?: BodyInit;
  timeoutMs: number;
  signal?: AbortSignal;
  /** A 401 means the session ended (the handler signs out); off for public calls, whose 401 is a form error. */
  session: boolean;
  /** Checks the answer's shape, for callers that have the schema at hand anyway (the playground's). */
  response?: ResponseSchema<T>;
  /** Set on the one repeat after a sign-in proof, so a refusal then is not asked about again. */
  reauthenticated?: boolean;
}

/**
 * Sends one request with the session cookie: `POST`, bounded by its timeout, a refusal turned into an
 * `ApiError` (a session call's 401 handed to the unauthorized handler first). Console calls and feature
 * calls both go through here.
 *
 * Console answers are not parsed with the contract's zod schemas here: the server parses every answer
 * with its call's response schema before sending it (registerCall), and carrying every screen's schemas
 * and zod to the sign-in page cost about a third of its JavaScript (issue 16). A success that is not
 * JSON (a proxy's HTML page, a cut-off body) is still refused as `invalid-response`.
 */
export async function exchange<T>(request: Exchange<T>): Promise<T> {
  const timeout = AbortSignal.timeout(request.timeoutMs);
  let response: Response;
  let body: unknown;
  try {
    response = await fetch(request.path, {
      method: request.method ?? "POST",
      credentials: "include",
      headers: { accept: "application/json", ...request.headers },
      body: request.body,
      signal: combineSignals(timeout, request.signal),
    });
    body = await readJson(response);
  } catch (error) {
    throw transportError(error, timeout);
  }

  if (!response.ok) {
    const error = isErrorBody(body)
      ? new ApiError(response.status, body.error, body.message, body.field)
      : new ApiError(response.status, "http-error", `The server answered with status ${response.status}.`);
    if (response.status === 401 && request.session) unauthorizedHandler?.(error, request.path);
    if (
      error.code === "reauthentication-required" &&
      request.session &&
      !request.reauthenticated &&
      reauthenticationHandler &&
      (await reauthenticationHandler())
    ) {
      return exchange({ ...request, reauthenticated: true });
    }
    throw error;
  }

  // A bodiless success (204, or an empty 200) stands for the empty object of "not shown" answers.
  const answer = body ?? {};
  const parsed = request.response
    ? request.response.safeParse(answer)
    : { success: typeof answer === "object", data: answer as T };
  if (!parsed.success) {
    throw new ApiError(response.status, "invalid-response", "The server sent an unexpected answer.");
  }
  return parsed.data;
}

/**
 * Makes one console call: `POST <path>` with a JSON body and the session cookie, bounded by the
 * call's timeout.
 */
export function callApi<C extends CallDefinition>(
  route: CallRoute,
  payload?: CallRequest<C>,
  options: CallOptions = {},
): Promise<CallResponse<C>> {
  return exchange<CallResponse<C>>({
    path: route.path,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(payload ?? {}),
    timeoutMs: route.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
    signal: options.signal,
    session: route.auth !== "public",
  });
}

/** A call's function: the payload is optional when the request has no required field. */
export type CallFunction<C extends CallDefinition> =
  undefined extends CallRequest<C>
    ? (payload?: CallRequest<C>, options?: CallOptions) => Promise<CallResponse<C>>
    : // biome-ignore lint/complexity/noBannedTypes: `{}` is exactly "an object with no required keys".
      {} extends CallRequest<C>
      ? (payload?: CallRequest<C>, options?: CallOptions) => Promise<CallResponse<C>>
      : (payload: CallRequest<C>, options?: CallOptions) => Promise<CallResponse<C>>;

/** The call registry with every definition replaced by its function, keeping the nesting. */
export type ApiOf<T> = {
  readonly [K in keyof T]: T[K] extends CallDefinition ? CallFunction<T[K]> : ApiOf<T[K]>;
};

function isCallRoute(value: unknown): value is CallRoute {
  return (
    typeof value === "object" && value !== null && typeof (value as { path?: unknown }).path === "string"
  );
}

/** One function per route, keeping the nesting; typed by the call registry the routes come from. */
export function bindRoutes<T extends object>(routes: CallRoutesOf<T>): ApiOf<T> {
  const bound: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(routes)) {
    if (isCallRoute(value)) {
      bound[key] = (payload?: unknown, options?: CallOptions) => callApi(value, payload as never, options);
    } else if (typeof value === "object" && value !== null) {
      bound[key] = bindRoutes(value as object);
    }
  }
  return bound as ApiOf<T>;
}

/** `api.users.me()`, `api.projects.create({ name, organizationId })`, ... typed from the contract. */
export const api = bindRoutes<typeof calls>(callRoutes);
