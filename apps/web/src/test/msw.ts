import { http } from "msw";
import { setupServer } from "msw/node";

/**
 * The one request router of the web tests: each test adds its handlers (`server.use`), which are
 * dropped after it. A request nobody answers fails the call, so a test notices what it did not expect.
 */
export const server = setupServer();

/** A console call as the server saw it: its path and its JSON body (`{}` when it had none). */
export interface SentCall {
  path: string;
  body: Record<string, unknown>;
}

/**
 * Answers every console call (JSON `POST`s) with `answer`, by path; returns the list of calls as they
 * arrive and `bodiesTo(path)`, what the page sent to one path.
 */
export function routeCalls(answer: (call: SentCall) => Response | Promise<Response>) {
  const sent: SentCall[] = [];
  server.use(
    http.post("*", async ({ request }) => {
      const text = await request.text();
      const call = {
        path: new URL(request.url).pathname,
        body: JSON.parse(text === "" ? "{}" : text) as Record<string, unknown>,
      };
      sent.push(call);
      return answer(call);
    }),
  );
  return {
    sent,
    bodiesTo: (path: string) => sent.filter((call) => call.path === path).map((call) => call.body),
  };
}
