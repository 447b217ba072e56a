import { type ErrorBody, type ErrorCode, errorMessageOf } from "@prism/contract";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ZodError } from "zod";
import { AppError } from "../errors";

/** Fastify's own 4xx errors, mapped onto the contract's codes so clients see one error shape. */
const FASTIFY_CODES: Record<string, { code: ErrorCode; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { code: "malformed-json", message: errorMessageOf("malformed-json") },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    code: "malformed-json",
    message: "The request body is empty; send a JSON object.",
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    code: "invalid-input",
    message: "The Content-Length header does not match the body.",
  },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: "payload-too-large", message: "The request body is too large." },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: "unsupported-media-type",
    message: "This content type is not supported here; send application/json.",
  },
  FST_ERR_CTP_INVALID_TYPE: { code: "unsupported-media-type", message: "The content type is invalid." },
  FST_ERR_BAD_URL: { code: "invalid-input", message: "The request URL is malformed." },
};

export function describeZodError(error: ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "The request is invalid.";
  const field = issue.path.length > 0 ? `${issue.path.join(".")}: ` : "";
  return `${field}${issue.message}`;
}

/** The realm of the Bearer challenge every 401 carries. */
const AUTH_REALM = "prism";
/** Codes for a credential that was sent and refused, as RFC 6750 §3.1 calls them `invalid_token`. */
const INVALID_TOKEN_CODES: ReadonlySet<ErrorCode> = new Set(["invalid-api-key", "api-key-expired"]);

/**
 * The `WWW-Authenticate` challenge of a 401 (RFC 9110 §11.6.1: a 401 must carry one): Bearer, the one
 * scheme the API takes (`Authorization: Bearer <key>`), with `error="invalid_token"` when the key sent
 * was refused (RFC 6750 §3). Console calls answer the same challenge: the header does not change what
 * the spec's client does with a 401 (it signs out), and a browser shows no dialog for Bearer.
 */
export function bearerChallenge(code: ErrorCode): string {
  return INVALID_TOKEN_CODES.has(code)
    ? `Bearer realm="${AUTH_REALM}", error="invalid_token"`
    : `Bearer realm="${AUTH_REALM}"`;
}

/** Every error body names the request, so a user can quote it to support and we can find its log lines. */
export function sendError(reply: FastifyReply, status: number, body: ErrorBody): FastifyReply {
  return reply
    .status(status)
    .type("application/json; charset=utf-8")
    .send({ ...body, requestId: reply.request.id });
}

function toAppError(error: unknown): AppError | undefined {
  if (error instanceof AppError) return error;
  if (error instanceof ZodError) {
    const path = error.issues[0]?.path.join(".");
    return new AppError("invalid-input", describeZodError(error), { field: path || undefined });
  }
  const fastifyError = error as Partial<Pick<FastifyError, "code" | "statusCode" | "message">>;
  if (fastifyError.code && FASTIFY_CODES[fastifyError.code]) {
    const known = FASTIFY_CODES[fastifyError.code]!;
    return new AppError(known.code, known.message);
  }
  if (fastifyError.statusCode === 429) {
    return new AppError("rate-limited", errorMessageOf("rate-limited"));
  }
  if (fastifyError.statusCode === 413)
    return new AppError("payload-too-large", "The request body is too large.");
  if (fastifyError.statusCode === 415) {
    return new AppError("unsupported-media-type", "This content type is not supported here.");
  }
  if (
    typeof fastifyError.statusCode === "number" &&
    fastifyError.statusCode >= 400 &&
    fastifyError.statusCode < 500
  ) {
    return new AppError("invalid-input", fastifyError.message ?? "The request is invalid.");
  }
  return undefined;
}

/**
 * The single error handler: every failure leaves as `{ error, message }` with the contract's status.
 * Only unexpected errors (5xx) are logged with their stack; client mistakes are not our incidents.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const appError = toAppError(error);
    if (appError) {
      // A 503 is a state we put ourselves in (draining for a restart, a sign-in provider not set up):
      // worth a line, not an incident with a stack.
      if (appError.code === "service-unavailable") request.log.warn(appError.message);
      else if (appError.status >= 500) request.log.error({ err: error }, appError.message);
      reply.headers(appError.headers);
      if (appError.status === 401 && !reply.hasHeader("www-authenticate")) {
        reply.header("www-authenticate", bearerChallenge(appError.code));
      }
      return sendError(reply, appError.status, {
        error: appError.code,
        message: appError.message,
        ...(appError.field ? { field: appError.field } : {}),
      });
    }
    request.log.error({ err: error }, "unhandled error");
    return sendError(reply, 500, {
      error: "internal-error",
      message: "An unexpected error occurred. Please try again later or contact support.",
    });
  });
}
