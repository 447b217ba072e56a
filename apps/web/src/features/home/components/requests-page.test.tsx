import {
  backgroundRemovalFeature,
  listRequestsCall,
  PLAYGROUND_CALLER,
  PLAYGROUND_CALLER_FILTER,
  REQUEST_STATUS_LABELS,
  REQUESTS_EMPTY_TEXT,
  REQUESTS_PAGE_SIZE,
  type RequestLogEntry,
  transcriptionFeature,
} from "@prism/contract";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ownedOrganization, renderWithSession, stubApi, userWith } from "../../../test/session-harness";
import { formatCallDuration, RequestsPage } from "./requests-page";

afterEach(() => {
  vi.unstubAllGlobals();
});

const SLOW = { timeout: 5_000 };
const LIST = listRequestsCall.path;
const KEY_ID = "22222222-2222-4222-8222-222222222222";

function call(index: number, overrides: Partial<RequestLogEntry> = {}): RequestLogEntry {
  return {
    id: `00000000-0000-4000-8000-${String(index).padStart(12, "0")}`,
    date: new Date(Date.UTC(2026, 10, 20, 12, 0, 0) - index * 60_000).toISOString(),
    projectId: "11111111-1111-4111-8111-111111111111",
    projectName: "Default",
    endpoint: backgroundRemovalFeature.endpoint,
    feature: backgroundRemovalFeature.name,
    apiKeyId: null,
    caller: PLAYGROUND_CALLER,
    status: "done",
    durationMs: 1_250,
    cost: 0.01,
    resultUrl: `/v1/files/org-1/p/${index}.png`,
    resultText: null,
    ...overrides,
  };
}

const me = () => ({ body: userWith(ownedOrganization()) });

describe("RequestsPage", () => {
  it("lists the calls newest first and loads the next page with the cursor it was given", async () => {
    const firstPage = Array.from({ length: REQUESTS_PAGE_SIZE }, (_, index) =>
      call(index, index === 0 ? { apiKeyId: KEY_ID, caller: "CI key", cost: 0.0375 } : {}),
    );
    const { bodiesTo } = stubApi({
      "/v1/users/me": me,
      [LIST]: (body) =>
        body.cursor === "page-2"
          ? {
              body: {
                requests: [
                  call(REQUESTS_PAGE_SIZE, { status: "error", cost: 0, resultUrl: null, durationMs: 300 }),
                ],
                nextCursor: null,
                apiKeys: [],
              },
            }
          : {
              body: {
                requests: firstPage,
                nextCursor: "page-2",
                apiKeys: [{ id: KEY_ID, name: "CI key", projectName: "Default" }],
              },
            },
    });
    renderWithSession(<RequestsPage />);
    await waitFor(() => expect(screen.getAllByTestId("request-row")).toHaveLength(REQUESTS_PAGE_SIZE), SLOW);
    const first = screen.getAllByTestId("request-row")[0] as HTMLElement;
    expect(within(first).getByText("CI key")).toBeTruthy();
    expect(within(first).getByText("$0.038")).toBeTruthy();
    expect(within(first).getByText("1.3 s")).toBeTruthy();
    expect(within(first).getByText(REQUEST_STATUS_LABELS.done)).toBeTruthy();
    expect(within(first).getByRole("link").getAttribute("href")).toBe("/v1/files/org-1/p/0.png");
    expect(bodiesTo(LIST)[0]).toEqual({
      organizationId: "org-1",
      projectIds: ["11111111-1111-4111-8111-111111111111"],
    });

    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Load more" }));
    await waitFor(
      () => expect(screen.getAllByTestId("request-row")).toHaveLength(REQUESTS_PAGE_SIZE + 1),
      SLOW,
    );
    expect(bodiesTo(LIST).at(-1)?.cursor).toBe("page-2");
    const last = screen.getAllByTestId("request-row").at(-1) as HTMLElement;
    expect(within(last).getByText(REQUEST_STATUS_LABELS.error)).toBeTruthy();
    expect(within(last).queryByRole("link")).toBeNull();
    expect(screen.queryByRole("button", { name: "Load more" })).toBeNull();
  });

  it("sends the chosen feature, caller, status and days, and offers to clear filters that match nothing", async () => {
    const { bodiesTo } = stubApi({
      "/v1/users/me": me,
      [LIST]: (body) => ({
        body: {
          requests: Object.keys(body).length > 2 ? [] : [call(1)],
          nextCursor: null,
          apiKeys: [{ id: KEY_ID, name: "CI key", projectName: "Default" }],
        },
      }),
    });
    renderWithSession(<RequestsPage />);
    await waitFor(() => expect(screen.getAllByTestId("request-row")).toHaveLength(1), SLOW);
    const user = userEvent.setup();

    await user.click(screen.getByLabelText("Feature", { selector: "input" }));
    await user.click(await screen.findByRole("option", { name: transcriptionFeature.name, hidden: true }));
    await waitFor(() => expect(bodiesTo(LIST).at(-1)?.endpoint).toBe(transcriptionFeature.endpoint), SLOW);

    await user.click(screen.getByLabelText("API key", { selector: "input" }));
    await user.click(await screen.findByRole("option", { name: PLAYGROUND_CALLER, hidden: true }));
    await waitFor(() => expect(bodiesTo(LIST).at(-1)?.apiKeyId).toBe(PLAYGROUND_CALLER_FILTER), SLOW);

    await user.click(screen.getByLabelText("Status", { selector: "input" }));
    await user.click(await screen.findByRole("option", { name: REQUEST_STATUS_LABELS.error, hidden: true }));
    // The days come from the same date picker as the audit log's, not the browser's native input.
    const now = new Date();
    const month = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, "0")}`;
    const monthName = now.toLocaleString("en-US", { month: "long", year: "numeric" });
    await user.click(screen.getByLabelText("Days (UTC)"));
    await user.click(await screen.findByRole("button", { name: `2 ${monthName}`, hidden: true }));
    await user.click(await screen.findByRole("button", { name: `12 ${monthName}`, hidden: true }));
    await waitFor(
      () =>
        expect(bodiesTo(LIST).at(-1)).toMatchObject({
          endpoint: transcriptionFeature.endpoint,
          apiKeyId: PLAYGROUND_CALLER_FILTER,
          status: "error",
          from: `${month}-02`,
          to: `${month}-12`,
        }),
      SLOW,
    );
    expect(screen.getByLabelText("Days (UTC)")).toHaveTextContent(
      `${now.toLocaleString("en-US", { month: "short" })} 02, ${now.getFullYear()} – `,
    );
    expect(await screen.findByText("No calls match these filters", {}, SLOW)).toBeTruthy();
    expect(screen.getByText(REQUESTS_EMPTY_TEXT)).toBeTruthy();

    await user.click(screen.getByRole("button", { name: "Clear filters" }));
    await waitFor(() => expect(screen.getAllByTestId("request-row")).toHaveLength(1), SLOW);
  });

  it("shows a transcription's first words as its result, not a dash", async () => {
    stubApi({
      "/v1/users/me": me,
      [LIST]: () => ({
        body: {
          requests: [
            call(1, {
              endpoint: transcriptionFeature.endpoint,
              feature: transcriptionFeature.name,
              resultUrl: null,
              resultText: "go forward ten meters",
            }),
          ],
          nextCursor: null,
          apiKeys: [],
        },
      }),
    });
    renderWithSession(<RequestsPage />);
    const row = await screen.findByTestId("request-row", {}, SLOW);
    expect(within(row).getByTestId("request-result-text")).toHaveTextContent("go forward ten meters");
    expect(within(row).queryByText("—")).toBeNull();
  });

  it("opens a call from its row in a drawer: id to copy, parameters, files, output, error, caller and the call as code", async () => {
    const id = "33333333-3333-4333-8333-333333333333";
    const { bodiesTo } = stubApi({
      "/v1/users/me": me,
      [LIST]: () => ({
        body: {
          requests: [call(1, { id, apiKeyId: KEY_ID, caller: "CI key", status: "error", cost: 0 })],
          nextCursor: null,
          apiKeys: [],
        },
      }),
      "/v1/users/requests/get": () => ({
        body: {
          request: {
            ...call(1, { id, apiKeyId: KEY_ID, caller: "CI key", status: "error", cost: 0, resultUrl: null }),
            endpoint: "/v1/images/extension",
            feature: "Image Extension",
            userName: null,
            clientIp: "203.0.113.9",
            parameters: { top: 16, bottom: 0, left: 8, right: 0 },
            inputs: { image: ["/v1/files/org-1/p/photo.png"] },
            resultBody: null,
            error: "The model server did not answer. You were not charged for it.",
            deleted: false,
          },
        },
      }),
    });
    const router = renderWithSession(<RequestsPage />);
    const user = userEvent.setup();
    const row = await screen.findByTestId("request-row", {}, SLOW);
    expect(within(row).getByText("33333333")).toBeInTheDocument();
    await user.click(within(row).getByText("CI key"));

    const drawer = await screen.findByRole("dialog", { name: "Image Extension call" }, SLOW);
    expect(bodiesTo("/v1/users/requests/get")).toEqual([{ organizationId: "org-1", requestId: id }]);
    expect(router.state.location.search).toBe(`?request=${id}`);
    expect(within(drawer).getByLabelText("Request ID")).toHaveValue(id);
    expect(within(drawer).getByRole("button", { name: "Copy Request ID" })).toBeInTheDocument();
    expect(within(drawer).getByText("API key CI key")).toBeInTheDocument();
    expect(within(drawer).getByText("203.0.113.9")).toBeInTheDocument();
    expect(
      within(drawer).getByText("The model server did not answer. You were not charged for it."),
    ).toBeInTheDocument();
    const parameters = within(drawer).getByRole("table", { name: "Parameters" });
    expect(within(parameters).getByText("top").closest("tr")).toHaveTextContent("top16");
    expect(within(drawer).getByRole("link", { name: /photo\.png/ })).toHaveAttribute(
      "href",
      "/v1/files/org-1/p/photo.png",
    );
    const code = within(drawer).getByTestId("api-call-code").textContent ?? "";
    expect(code).toContain(`${window.location.origin}/v1/images/extension`);
    expect(code).toContain('-H "Authorization: Bearer $PRISM_API_KEY"');
    expect(code).toContain("-F 'image=@photo.png'");
    expect(code).toContain("-F 'top=16'");

    // Closing takes the call out of the address.
    await user.click(within(drawer).getByRole("button", { name: "Close the call" }));
    await waitFor(() => expect(router.state.location.search).toBe(""));
  });

  it("shows the server's refusal with a way to try again", async () => {
    let fail = true;
    stubApi({
      "/v1/users/me": me,
      [LIST]: () =>
        fail
          ? { status: 404, body: { error: "not-found", message: "Project not found." } }
          : { body: { requests: [call(1)], nextCursor: null, apiKeys: [] } },
    });
    renderWithSession(<RequestsPage />);
    expect(await screen.findByText("Project not found.", {}, SLOW)).toBeTruthy();
    fail = false;
    await userEvent.setup().click(screen.getByRole("button", { name: "Try again" }));
    await waitFor(() => expect(screen.getAllByTestId("request-row")).toHaveLength(1), SLOW);
  });
});

describe("formatCallDuration", () => {
  it("reads milliseconds, seconds and minutes, and a dash while the call runs", () => {
    expect(formatCallDuration(850)).toBe("850 ms");
    expect(formatCallDuration(12_449)).toBe("12.4 s");
    expect(formatCallDuration(185_000)).toBe("3 min 05 s");
    expect(formatCallDuration(null)).toBe("—");
  });
});
