import {
  ADD_FUNDS_LABEL,
  BALANCE_SHORT_ASK,
  backgroundRemovalFeature,
  DELETE_IMAGE_TITLE,
  ERROR_DIALOGS,
  FEATURE_NEEDS_MODEL_SERVER,
  FEATURE_NOT_AVAILABLE_YET,
  type Feature,
  GENERATION_ERROR_LABEL,
  HISTORY_EMPTY,
  identityInpaintingFeature,
  MODEL_SERVERS_DOCS_PATH,
  type Organization,
  type RequestDetail,
  requestCancelPath,
  requestDetailPath,
} from "@prism/contract";
import { cleanup, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { HttpResponse, http } from "msw";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { server } from "../../../test/msw";
import { useNodeMultipart } from "../../../test/node-multipart";
import {
  ownedOrganization,
  renderWithSession,
  stubApi,
  stubFeature,
  userWith,
} from "../../../test/session-harness";
import { PlaygroundScreen, type PlaygroundScreenProps } from "./playground-screen";

const PROJECT = "11111111-1111-4111-8111-111111111111";
const RECORD = {
  id: "req-1",
  request_date: "2026-11-03T16:05:00Z",
  cost: 0.02,
  request_data: { files: { image: ["/v1/files/in.png"] }, body: {} },
  response_data: { file: "/v1/files/out.png" },
  status: "done",
};

beforeEach(() => {
  useNodeMultipart();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

/** The JSON calls through the session harness, the multipart feature call through `featureAnswer`. */
function stubPlayground(options: {
  feature?: Feature;
  available?: boolean;
  /** The provider serving the feature; null when none is configured (it needs a model server). */
  provider?: "builtin" | "http" | null;
  requests?: unknown[];
  pages?: { requests: unknown[]; hasMoreItems: boolean; nextCursor: string | null }[];
  featureAnswer?: () => Promise<Response>;
  /** The organization's balance as /v1/users/me answers it now. */
  balance?: () => number;
  /** The member's rights; the owner's by default. */
  permissions?: Organization["permissions"];
}) {
  let page = 0;
  const feature = options.feature ?? backgroundRemovalFeature;
  const permissions = options.permissions;
  const stub = stubApi({
    "/v1/users/me": () => ({
      body: userWith(
        ownedOrganization({ balance: options.balance?.() ?? 5, ...(permissions ? { permissions } : {}) }),
      ),
    }),
    "/v1/users/playground/feature-status": () => ({
      body: {
        features: [
          {
            endpoint: feature.endpoint,
            available: options.available ?? true,
            reason: options.available === false ? "No background removal model is installed." : null,
            provider: options.provider === undefined ? "builtin" : options.provider,
            priceInfo: { price: 0.01 },
          },
        ],
      },
    }),
    "/v1/users/playground/get-requests": () => {
      const answer = options.pages?.[page] ?? {
        requests: options.requests ?? [],
        hasMoreItems: false,
        nextCursor: null,
      };
      page += 1;
      return { body: { ...answer, priceInfo: { price: 0.01 } } };
    },
    "/v1/users/playground/delete-request": () => ({ body: {} }),
    "/v1/users/logout": () => ({ body: {} }),
  });
  // Without an answer the call fails like a lost connection.
  const featureCalls = stubFeature(feature.endpoint, () =>
    options.featureAnswer ? options.featureAnswer() : HttpResponse.error(),
  );
  return { ...stub, featureCalls };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

function renderScreen(props: Partial<PlaygroundScreenProps> = {}) {
  const file = new File([new Uint8Array([1, 2, 3])], "subject.png", { type: "image/png" });
  return renderWithSession(
    <PlaygroundScreen
      feature={backgroundRemovalFeature}
      actionLabel="Remove Background"
      canRun
      buildRequest={() => ({ files: { image: [file] }, body: {} })}
      form={<p>form</p>}
      {...props}
    />,
  );
}

const CALL_ID = "33333333-3333-4333-8333-333333333333";
/** A call as GET /v1/requests/{id} answers it, in `status`. */
function detail(status: RequestDetail["status"], extra: Partial<RequestDetail> = {}): RequestDetail {
  return {
    id: CALL_ID,
    request_date: "2026-11-27T10:00:00.000Z",
    request_data: { files: { image: ["/v1/files/in.png"] }, body: {} },
    response_data: status === "succeeded" ? { file: "/v1/files/out.png" } : {},
    status,
    cost: status === "canceled" || status === "failed" ? 0 : 0.01,
    endpoint: backgroundRemovalFeature.endpoint,
    queue_position: status === "queued" ? 2 : null,
    started_date: status === "queued" ? null : "2026-11-27T10:00:01.000Z",
    completed_date: null,
    reserved: 0.01,
    error: status === "canceled" ? "request-canceled" : null,
    error_message: null,
    urls: { get: requestDetailPath(CALL_ID), cancel: requestCancelPath(CALL_ID) },
    ...extra,
  };
}

/** Answers the GETs of the call with `states` in turn (the last one repeated). */
function stubFollow(states: RequestDetail[]) {
  let index = 0;
  server.use(
    http.get(requestDetailPath(CALL_ID), () => {
      const state = states[Math.min(index, states.length - 1)];
      index += 1;
      return HttpResponse.json(state);
    }),
  );
}

describe("PlaygroundScreen", () => {
  it("follows an accepted call: Queued with its position, then running, then the result and the balance read again", async () => {
    let balance = 5;
    const { featureCalls, bodiesTo } = stubPlayground({
      featureAnswer: async () => json(202, detail("queued")),
      balance: () => balance,
    });
    stubFollow([detail("queued"), detail("running"), detail("running"), detail("succeeded")]);
    renderScreen();
    const user = userEvent.setup();
    await screen.findByText(HISTORY_EMPTY);
    await user.click(screen.getByRole("button", { name: "Remove Background" }));
    await waitFor(() => expect(featureCalls[0]?.headers.get("prefer")).toBe("respond-async"));

    expect(await screen.findByTestId("queue-position")).toHaveTextContent("Queued (position 3)");
    expect(screen.getByTestId("history-row")).toHaveAttribute("data-status", "queued");
    await waitFor(
      () => expect(screen.getByTestId("history-row")).toHaveAttribute("data-status", "generating"),
      {
        timeout: 5_000,
      },
    );
    expect(within(screen.getByTestId("history-row")).getByTestId("elapsed-timer")).toBeInTheDocument();
    balance = 4.99;
    await waitFor(() => expect(screen.getByTestId("history-row")).toHaveAttribute("data-status", "done"), {
      timeout: 5_000,
    });
    expect(screen.getByRole("img", { name: "Result" })).toHaveAttribute("src", "/v1/files/out.png_thumb");
    await waitFor(() => expect(screen.getByTestId("session-balance")).toHaveTextContent("4.99"));
    expect(bodiesTo("/v1/users/me").length).toBeGreaterThan(1);
  });

  it("cancels a queued call from its row and shows it Canceled", async () => {
    stubPlayground({ requests: [{ ...RECORD, id: CALL_ID, status: "queued", response_data: {} }] });
    stubFollow([detail("queued")]);
    const canceled: string[] = [];
    server.use(
      http.post(requestCancelPath(CALL_ID), ({ request }) => {
        canceled.push(request.headers.get("x-authorization-project") ?? "");
        return HttpResponse.json(detail("canceled"));
      }),
    );
    renderScreen();
    const user = userEvent.setup();
    const row = await screen.findByTestId("history-row");
    expect(row).toHaveAttribute("data-status", "queued");
    await user.click(within(row).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.getByTestId("history-row")).toHaveAttribute("data-status", "canceled"));
    expect(canceled).toEqual([PROJECT]);
    expect(within(screen.getByTestId("history-row")).queryByRole("button", { name: "Cancel" })).toBeNull();
  });

  it("follows a call that was still running when the list loaded (a reload) to its end", async () => {
    stubPlayground({ requests: [{ ...RECORD, id: CALL_ID, status: "generating", response_data: {} }] });
    stubFollow([detail("running"), detail("succeeded")]);
    renderScreen();
    const row = await screen.findByTestId("history-row");
    expect(row).toHaveAttribute("data-status", "generating");
    await waitFor(() => expect(screen.getByTestId("history-row")).toHaveAttribute("data-status", "done"), {
      timeout: 5_000,
    });
  });

  it("shows the empty text, the price line and the list name", async () => {
    stubPlayground({});
    renderScreen();
    expect(await screen.findByText(HISTORY_EMPTY)).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Your Images" })).toBeInTheDocument();
    expect(screen.getByTestId("price-line")).toHaveTextContent("$0.010 will be charged");
  });

  it("points to the options above, not the left panel, where the panels stack (a phone)", async () => {
    vi.stubGlobal("matchMedia", (query: string) => ({
      matches: query.includes("max-width"),
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }));
    stubPlayground({});
    renderScreen();
    expect(
      await screen.findByText("You haven't used this section yet. Start now using the options above!"),
    ).toBeInTheDocument();
    expect(screen.queryByText(HISTORY_EMPTY)).toBeNull();
  });

  it("sends the file with the project header, shows the generating row, then the result and the new balance", async () => {
    let answer: (response: Response) => void = () => {};
    const { featureCalls } = stubPlayground({
      featureAnswer: () =>
        new Promise((resolve) => {
          answer = resolve;
        }),
    });
    renderScreen();
    const user = userEvent.setup();
    await screen.findByText(HISTORY_EMPTY);
    await user.click(screen.getByRole("button", { name: "Remove Background" }));

    const row = await screen.findByTestId("history-row");
    expect(row).toHaveAttribute("data-status", "generating");
    expect(within(row).getByTestId("elapsed-timer").textContent).toMatch(/^\d+\.\ds$/);
    expect(within(row).getByRole("button", { name: "Download" })).toBeDisabled();
    expect(featureCalls[0]?.headers.get("x-authorization-project")).toBe(PROJECT);
    expect((featureCalls[0]?.body.get("image") as File | undefined)?.name).toBe("subject.png");

    expect(within(row).queryByTestId("row-cost")).not.toBeInTheDocument();

    answer(json(200, { balance: 4.99, cost: 0.0375, request: { ...RECORD, cost: 0.0375 } }));
    await waitFor(() => expect(screen.getByTestId("history-row")).toHaveAttribute("data-status", "done"));
    // The call's cost under its date, with the contract's 3-decimal formatter (rounded half up).
    expect(screen.getByTestId("row-cost")).toHaveTextContent("$0.038");
    // The spec's name for every image download.
    expect(screen.getByRole("link", { name: "Download" })).toHaveAttribute("download", "image.png");
    expect(screen.getByRole("img", { name: "Result" })).toHaveAttribute("src", "/v1/files/out.png_thumb");
    expect(screen.getByTestId("session-balance")).toHaveTextContent("4.99");
  });

  it("revokes a placeholder's preview URLs once the stored record replaces the row", async () => {
    const created = vi.spyOn(URL, "createObjectURL").mockReturnValue("blob:preview-1");
    const revoked = vi.spyOn(URL, "revokeObjectURL").mockImplementation(() => {});
    stubPlayground({ featureAnswer: async () => json(200, { balance: 4.99, cost: 0.02, request: RECORD }) });
    renderScreen();
    const user = userEvent.setup();
    await screen.findByText(HISTORY_EMPTY);
    await user.click(screen.getByRole("button", { name: "Remove Background" }));
    await waitFor(() => expect(screen.getByTestId("history-row")).toHaveAttribute("data-status", "done"));
    expect(created).toHaveBeenCalledTimes(1);
    expect(revoked).toHaveBeenCalledWith("blob:preview-1");
    created.mockRestore();
    revoked.mockRestore();
  });

  it("keeps a failed row's preview while it is shown, and revokes it when the screen goes", async () => {
    const created = vi.spyOn(URL, "createObjectURL").mockReturnValue("blob:preview-2");
    const revoked = vi.spyOn(URL, "revokeObjectURL").mockImplementation(() => {});
    stubPlayground({
      featureAnswer: async () => json(502, { error: "feature-failed", message: "The model failed." }),
    });
    renderScreen();
    const user = userEvent.setup();
    await screen.findByText(HISTORY_EMPTY);
    await user.click(screen.getByRole("button", { name: "Remove Background" }));
    await waitFor(() => expect(screen.getByTestId("history-row")).toHaveAttribute("data-status", "error"));
    expect(revoked).not.toHaveBeenCalled();
    cleanup();
    expect(revoked).toHaveBeenCalledWith("blob:preview-2");
    created.mockRestore();
    revoked.mockRestore();
  });

  it("signs out through the api client when the feature call answers 401, dropping the row", async () => {
    const { bodiesTo } = stubPlayground({
      featureAnswer: async () => json(401, { error: "unauthenticated", message: "You are not signed in." }),
    });
    renderScreen();
    const user = userEvent.setup();
    await screen.findByText(HISTORY_EMPTY);
    await user.click(screen.getByRole("button", { name: "Remove Background" }));
    await waitFor(() => expect(bodiesTo("/v1/users/logout")).toHaveLength(1));
    expect(screen.queryByTestId("history-row")).not.toBeInTheDocument();
  });

  it("removes the placeholder and shows Insufficient Balance on 402", async () => {
    stubPlayground({
      featureAnswer: async () =>
        json(402, { error: "insufficient-balance", message: ERROR_DIALOGS.insufficientBalance.message }),
    });
    renderScreen();
    const user = userEvent.setup();
    await screen.findByText(HISTORY_EMPTY);
    await user.click(screen.getByRole("button", { name: "Remove Background" }));
    const dialog = await screen.findByRole("dialog", { name: ERROR_DIALOGS.insufficientBalance.title });
    expect(within(dialog).getByText(ERROR_DIALOGS.insufficientBalance.message)).toBeInTheDocument();
    expect(screen.queryByTestId("history-row")).not.toBeInTheDocument();
  });

  it("offers Add funds in the Insufficient Balance dialog, which leads to Payments", async () => {
    stubPlayground({
      featureAnswer: async () =>
        json(402, { error: "insufficient-balance", message: ERROR_DIALOGS.insufficientBalance.message }),
    });
    const router = renderScreen();
    const user = userEvent.setup();
    await screen.findByText(HISTORY_EMPTY);
    await user.click(screen.getByRole("button", { name: "Remove Background" }));
    const dialog = await screen.findByRole("dialog", { name: ERROR_DIALOGS.insufficientBalance.title });
    expect(within(dialog).getByRole("button", { name: "Close" })).toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: ADD_FUNDS_LABEL }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/organization/payments"));
  });

  it("says before the click when the balance does not cover the price, with the way to add funds", async () => {
    stubPlayground({ balance: () => 0 });
    renderScreen();
    const notice = await screen.findByTestId("balance-notice");
    expect(notice).toHaveTextContent("Your balance ($0.00) does not cover this call.");
    expect(within(notice).getByRole("link", { name: ADD_FUNDS_LABEL })).toHaveAttribute(
      "href",
      "/organization/payments",
    );
    expect(screen.getByRole("button", { name: "Remove Background" })).toBeEnabled();
  });

  it("asks members who cannot pay to turn to those who can, with no Add funds", async () => {
    const permissions = { ...ownedOrganization().permissions, owner: false };
    permissions.organization = { ...permissions.organization, payments: false };
    stubPlayground({
      balance: () => 0,
      permissions,
      featureAnswer: async () =>
        json(402, { error: "insufficient-balance", message: ERROR_DIALOGS.insufficientBalance.message }),
    });
    renderScreen();
    const user = userEvent.setup();
    const notice = await screen.findByTestId("balance-notice");
    expect(notice).toHaveTextContent(BALANCE_SHORT_ASK);
    expect(within(notice).queryByRole("link")).toBeNull();
    await user.click(screen.getByRole("button", { name: "Remove Background" }));
    const dialog = await screen.findByRole("dialog", { name: ERROR_DIALOGS.insufficientBalance.title });
    expect(within(dialog).queryByRole("button", { name: ADD_FUNDS_LABEL })).toBeNull();
  });

  it("has no balance notice when the balance covers the price", async () => {
    stubPlayground({ balance: () => 5 });
    renderScreen();
    await screen.findByText(HISTORY_EMPTY);
    await screen.findByTestId("price-line");
    expect(screen.queryByTestId("balance-notice")).toBeNull();
  });

  it("marks the row Generation Error when the feature fails", async () => {
    stubPlayground({
      featureAnswer: async () =>
        json(502, { error: "feature-failed", message: "The request could not be completed." }),
    });
    renderScreen();
    const user = userEvent.setup();
    await screen.findByText(HISTORY_EMPTY);
    await user.click(screen.getByRole("button", { name: "Remove Background" }));
    await waitFor(() => expect(screen.getByTestId("history-row")).toHaveAttribute("data-status", "error"));
    expect(screen.getAllByText(GENERATION_ERROR_LABEL).length).toBeGreaterThan(0);
  });

  it("says plainly when the provider is unavailable and disables the action", async () => {
    stubPlayground({ available: false, requests: [RECORD] });
    renderScreen();
    expect(await screen.findByTestId("feature-unavailable")).toHaveTextContent(
      "No background removal model is installed.",
    );
    expect(screen.getByRole("button", { name: "Remove Background" })).toBeDisabled();
    expect(await screen.findByTestId("history-row")).toHaveAttribute("data-status", "done");
  });

  it("tells the owner a feature no provider serves needs a model server, what turns it on, and the guide", async () => {
    stubPlayground({ available: false, provider: null });
    renderScreen();
    const notice = await screen.findByTestId("feature-unavailable");
    expect(notice).toHaveTextContent(FEATURE_NEEDS_MODEL_SERVER);
    expect(notice).not.toHaveTextContent("Run this deployment?");
    // The owner, who may run the deployment, learns which variables light it.
    expect(within(notice).getByTestId("lighting-variables")).toHaveTextContent(
      "Any one of these server variables does it:REPLICATE_API_TOKENFAL_KEYSTABILITY_API_KEYMODEL_SERVER_URL",
    );
    expect(notice).not.toHaveTextContent("No background removal model is installed.");
    expect(within(notice).getByRole("link", { name: "How to connect a model server" })).toHaveAttribute(
      "href",
      MODEL_SERVERS_DOCS_PATH,
    );
    expect(screen.getByRole("button", { name: "Remove Background" })).toBeDisabled();
  });

  it("disables what cannot run: the inputs, with no price and no Show API Call for a call that cannot run", async () => {
    stubPlayground({ available: false, provider: null });
    renderScreen({ form: <input aria-label="Prompt" /> });
    await screen.findByTestId("feature-unavailable");
    expect(screen.getByRole("textbox", { name: "Prompt" })).toBeDisabled();
    expect(screen.queryByTestId("price-line")).toBeNull();
    expect(screen.queryByText(/will be charged/)).toBeNull();
    expect(screen.queryByRole("button", { name: "Show API Call" })).toBeNull();
    expect(screen.getByRole("button", { name: "Remove Background" })).toBeDisabled();
  });

  it("speaks to a member, not an operator: no deployment talk, no server settings", async () => {
    const permissions = { ...ownedOrganization().permissions, owner: false };
    stubPlayground({ available: false, provider: null, permissions });
    renderScreen();
    const notice = await screen.findByTestId("feature-unavailable");
    expect(notice).toHaveTextContent(FEATURE_NOT_AVAILABLE_YET);
    expect(notice).not.toHaveTextContent(FEATURE_NEEDS_MODEL_SERVER);
    expect(notice).not.toHaveTextContent(/deployment|MODEL_SERVER_URL|Run this/);
    expect(within(notice).queryByRole("link")).toBeNull();
  });

  it("offers a finished edit as a before/after comparison on a slider", async () => {
    stubPlayground({ requests: [RECORD] });
    renderScreen();
    const user = userEvent.setup();
    const row = await screen.findByTestId("history-row");
    await user.click(within(row).getByRole("button", { name: "Compare" }));
    const dialog = await screen.findByRole("dialog", { name: "Before and after" });
    // jsdom loads no pictures: the comparison waits for both sizes.
    expect(within(dialog).getByRole("progressbar", { name: "Loading the comparison" })).toBeInTheDocument();
  });

  it("deletes a row after the Delete Image confirmation", async () => {
    const { bodiesTo } = stubPlayground({ requests: [RECORD] });
    renderScreen();
    const user = userEvent.setup();
    await screen.findByTestId("history-row");
    await user.click(screen.getByRole("button", { name: "Delete" }));
    const confirm = await screen.findByRole("dialog", { name: DELETE_IMAGE_TITLE });
    await user.click(within(confirm).getByRole("button", { name: "Yes, proceed" }));
    await waitFor(() => expect(screen.queryByTestId("history-row")).not.toBeInTheDocument());
    expect(bodiesTo("/v1/users/playground/delete-request")).toEqual([
      { projectId: PROJECT, requestId: "req-1" },
    ]);
  });

  it("loads more rows when the end of the list is in view, by the previous page's cursor, until there is no next cursor", async () => {
    // The list's end is always "in view" here: every observe reports an intersection.
    class InViewObserver {
      constructor(private readonly callback: IntersectionObserverCallback) {}
      observe() {
        this.callback([{ isIntersecting: true } as IntersectionObserverEntry], this as never);
      }
      disconnect() {}
      unobserve() {}
    }
    vi.stubGlobal("IntersectionObserver", InViewObserver);
    const second = { ...RECORD, id: "req-2" };
    const third = { ...RECORD, id: "req-3" };
    const { bodiesTo } = stubPlayground({
      pages: [
        { requests: [RECORD, second], hasMoreItems: true, nextCursor: "cursor-after-req-2" },
        { requests: [third], hasMoreItems: false, nextCursor: null },
      ],
    });
    renderScreen();
    await waitFor(() => expect(screen.getAllByTestId("history-row")).toHaveLength(3));
    await new Promise((done) => setTimeout(done, 50));
    expect(bodiesTo("/v1/users/playground/get-requests")).toEqual([
      { endpoint: backgroundRemovalFeature.endpoint, projectId: PROJECT },
      { endpoint: backgroundRemovalFeature.endpoint, projectId: PROJECT, cursor: "cursor-after-req-2" },
    ]);
  });

  it("launches `count` calls in parallel, one row each, and keeps working until the last one ends", async () => {
    const answers: ((response: Response) => void)[] = [];
    const { featureCalls } = stubPlayground({
      featureAnswer: () => new Promise((resolve) => answers.push(resolve)),
    });
    renderScreen({ count: 3, priceLine: (price) => `$${(price * 3).toFixed(3)} for 3` });
    const user = userEvent.setup();
    await screen.findByText(HISTORY_EMPTY);
    expect(screen.getByTestId("price-line")).toHaveTextContent("$0.030 for 3");
    await user.click(screen.getByRole("button", { name: "Remove Background" }));
    await waitFor(() => expect(screen.getAllByTestId("history-row")).toHaveLength(3));
    expect(featureCalls).toHaveLength(3);
    const action = screen.getByRole("button", { name: "Remove Background" });
    expect(action).toHaveAttribute("data-loading", "true");

    answers[0]?.(json(200, { balance: 4.99, cost: 0.02, request: RECORD }));
    answers[1]?.(json(200, { balance: 4.98, cost: 0.02, request: { ...RECORD, id: "req-2" } }));
    await waitFor(() =>
      expect(
        screen.getAllByTestId("history-row").filter((row) => row.dataset.status === "done"),
      ).toHaveLength(2),
    );
    expect(action).toHaveAttribute("data-loading", "true");
    answers[2]?.(json(502, { error: "feature-failed", message: "The model failed." }));
    await waitFor(() => expect(action).not.toHaveAttribute("data-loading"));
    expect(
      screen
        .getAllByTestId("history-row")
        .map((row) => row.dataset.status)
        .sort(),
    ).toEqual(["done", "done", "error"]);
  });

  it("shows the validation dialog instead of sending", async () => {
    const { featureCalls } = stubPlayground({});
    renderScreen({ validate: () => ({ title: "AI Clone not Selected", message: "Please select one." }) });
    const user = userEvent.setup();
    await screen.findByText(HISTORY_EMPTY);
    await user.click(screen.getByRole("button", { name: "Remove Background" }));
    const dialog = await screen.findByRole("dialog", { name: "AI Clone not Selected" });
    expect(within(dialog).getByText("Please select one.")).toBeInTheDocument();
    expect(featureCalls).toHaveLength(0);
    expect(screen.queryByTestId("history-row")).not.toBeInTheDocument();
  });

  it("sends the request's extra headers", async () => {
    const { featureCalls } = stubPlayground({
      featureAnswer: async () => json(200, { balance: 4.99, cost: 0.02, request: RECORD }),
    });
    const file = new File([new Uint8Array([1])], "a.png", { type: "image/png" });
    renderScreen({
      buildRequest: async () => ({
        files: { image: [file] },
        body: { prompt: "x" },
        headers: { "x-authorization-identity-request-id": "clone-request" },
      }),
    });
    const user = userEvent.setup();
    await screen.findByText(HISTORY_EMPTY);
    await user.click(screen.getByRole("button", { name: "Remove Background" }));
    await waitFor(() => expect(featureCalls).toHaveLength(1));
    expect(featureCalls[0]?.headers.get("x-authorization-identity-request-id")).toBe("clone-request");
    expect(featureCalls[0]?.headers.get("x-authorization-project")).toBe(PROJECT);
  });

  it("shows the provider's reason on the failed row when it could not process the input", async () => {
    stubPlayground({
      featureAnswer: async () =>
        json(422, { error: "unprocessable-input", message: "No face found in the source image." }),
    });
    renderScreen();
    const user = userEvent.setup();
    await screen.findByText(HISTORY_EMPTY);
    await user.click(screen.getByRole("button", { name: "Remove Background" }));
    await waitFor(() => expect(screen.getByTestId("history-row")).toHaveAttribute("data-status", "error"));
    expect(screen.getByTestId("row-error-reason")).toHaveTextContent("No face found in the source image.");
    // Background removal has no failure dialog: the row alone says it.
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });

  it("renders the screen's own row content", async () => {
    stubPlayground({ requests: [RECORD] });
    renderScreen({ renderRowBody: (item) => <p>custom row {item.id}</p> });
    expect(await screen.findByText("custom row req-1")).toBeInTheDocument();
    expect(screen.queryByRole("img", { name: "Result" })).not.toBeInTheDocument();
  });

  it("marks the row Generation Error, without a dialog, when the server refuses the request with 400", async () => {
    stubPlayground({
      featureAnswer: async () => json(400, { error: "invalid-input", message: "image: Unsupported value." }),
    });
    renderScreen();
    const user = userEvent.setup();
    await screen.findByText(HISTORY_EMPTY);
    await user.click(screen.getByRole("button", { name: "Remove Background" }));
    await waitFor(() => expect(screen.getByTestId("history-row")).toHaveAttribute("data-status", "error"));
    expect(screen.getAllByText(GENERATION_ERROR_LABEL).length).toBeGreaterThan(0);
    expect(screen.getByTestId("row-error-reason")).toHaveTextContent("image: Unsupported value.");
    await new Promise((done) => setTimeout(done, 50));
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });

  it("titles an inpainting refusal Error Inpainting Image, with the server's reason", async () => {
    stubPlayground({
      feature: identityInpaintingFeature,
      featureAnswer: async () =>
        json(400, { error: "invalid-input", message: "mask: Draw the area to inpaint." }),
    });
    renderScreen({ feature: identityInpaintingFeature, actionLabel: "Inpaint" });
    const user = userEvent.setup();
    await screen.findByText(HISTORY_EMPTY);
    await user.click(screen.getByRole("button", { name: "Inpaint" }));
    const dialog = await screen.findByRole("dialog", { name: ERROR_DIALOGS.inpaintImage.title });
    expect(dialog).toHaveTextContent("mask: Draw the area to inpaint.");
    expect(screen.getByTestId("history-row")).toHaveAttribute("data-status", "error");
  });

  it("titles an inpainting failure Error Inpainting Image with the spec's text", async () => {
    stubPlayground({
      feature: identityInpaintingFeature,
      featureAnswer: async () => json(502, { error: "feature-failed", message: "The model failed." }),
    });
    renderScreen({ feature: identityInpaintingFeature, actionLabel: "Inpaint" });
    const user = userEvent.setup();
    await screen.findByText(HISTORY_EMPTY);
    await user.click(screen.getByRole("button", { name: "Inpaint" }));
    const dialog = await screen.findByRole("dialog", { name: "Error Inpainting Image" });
    expect(dialog).toHaveTextContent(
      "An error occurred while applying the inpainting. Please try again later or contact our support.",
    );
  });
});
