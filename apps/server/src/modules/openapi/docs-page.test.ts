// @vitest-environment jsdom
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { FEATURE_NEEDS_MODEL_SERVER, FEATURES, MODEL_SERVERS_DOCS_ANCHOR } from "@prism/contract";
import { afterEach, describe, expect, it, vi } from "vitest";
import { buildOpenApiDocument, FILE_ROUTE, type OpenApiDocument, withAvailability } from "./openapi";
import { DOCS_ASSETS_DIR, docsPageHtml } from "./openapi.routes";

/** The few DOM members used here (the server's TypeScript setup has no DOM library). */
interface DomNode {
  innerHTML: string;
  textContent: string | null;
  hidden: boolean;
  value: string;
  getAttribute(name: string): string | null;
  querySelector(selector: string): DomNode | null;
  querySelectorAll(selector: string): ArrayLike<DomNode> & Iterable<DomNode>;
  dispatchEvent(event: unknown): boolean;
}
const dom = globalThis as unknown as {
  document: DomNode & { body: DomNode; getElementById(id: string): DomNode | null };
  Event: new (type: string) => unknown;
};

/** Runs the reference page's script in a DOM against the real document, as a browser would. */
describe("API reference page", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  // Every feature, the AI Clone list API keys may call, the file download, one call's status and usage.
  const operations = FEATURES.length + 4;

  /** Loads the page's body and runs its script against `spec`; resolves once the endpoints are drawn. */
  async function renderPage(spec: OpenApiDocument) {
    dom.document.body.innerHTML = /<body>([\s\S]*)<\/body>/.exec(docsPageHtml())![1]!;
    const fetchMock = vi.fn(async () => ({ ok: true, status: 200, json: async () => spec }));
    vi.stubGlobal("fetch", fetchMock);
    vi.stubGlobal(
      "IntersectionObserver",
      class {
        observe() {}
        disconnect() {}
      },
    );
    new Function(readFileSync(resolve(DOCS_ASSETS_DIR, "docs.js"), "utf8"))();
    await vi.waitFor(() =>
      expect(dom.document.querySelectorAll("section.operation")).toHaveLength(operations),
    );
    return fetchMock;
  }

  it("renders every endpoint with its price, fields, cURL example and errors", async () => {
    const fetchMock = await renderPage(buildOpenApiDocument());

    expect(fetchMock).toHaveBeenCalledWith("/v1/openapi.json", expect.anything());
    expect(dom.document.querySelector(".intro h1")?.textContent).toBe("Prism API");
    // The operations and the model-server guide.
    expect(dom.document.querySelectorAll(".nav-link[data-search]")).toHaveLength(operations + 1);

    const clones = dom.document.getElementById("getTrainedIdentities")!;
    expect(clones.querySelector(".endpoint code")?.textContent).toBe(
      "/v1/users/playground/get-trained-identities",
    );
    expect(clones.querySelector("h3 .muted")?.textContent).toBe("application/json");
    expect([...clones.querySelectorAll("td.name code")].map((cell) => cell.textContent)).toEqual([
      "projectId",
      "offset",
    ]);

    const removal = dom.document.getElementById("imageBackgroundRemoval")!;
    expect(removal.querySelector(".endpoint code")?.textContent).toBe("/v1/images/background-removal");
    expect(removal.querySelector(".price")?.textContent).toBe("$0.010 per call");
    // The optional Idempotency-Key header, then the upload.
    expect([...removal.querySelectorAll("td.name code")].map((cell) => cell.textContent)).toEqual([
      "Idempotency-Key",
      "image",
    ]);
    expect(removal.querySelector(".code-block pre")?.textContent).toContain("-F image=@photo.png");
    expect(removal.querySelectorAll("table.errors tbody tr").length).toBeGreaterThanOrEqual(12);

    const transcription = dom.document.getElementById("speechToText")!;
    expect(transcription.querySelector("details.enum summary")?.textContent).toMatch(/^\d+ values$/);

    const filter = dom.document.querySelector(".filter")!;
    filter.value = "transcription";
    filter.dispatchEvent(new dom.Event("input"));
    const visible = [...dom.document.querySelectorAll(".nav-link[data-search]")].filter(
      (link) => !link.hidden,
    );
    expect(visible.map((link) => link.getAttribute("href"))).toEqual(["#speechToText"]);
  });

  it("renders the file download with its path parameters and content types, and the model-server guide", async () => {
    await renderPage(buildOpenApiDocument());
    const download = dom.document.getElementById("downloadFile")!;
    expect(download.querySelector(".endpoint .method")?.textContent).toBe("GET");
    expect(download.querySelector(".endpoint code")?.textContent).toBe(FILE_ROUTE);
    const headings = [...download.querySelectorAll("h3")].map((heading) => heading.textContent);
    expect(headings).toContain("Path parameters");
    expect(headings).not.toContain("Body multipart/form-data");
    expect([...download.querySelectorAll("td.name code")].map((cell) => cell.textContent)).toEqual([
      "organizationId",
      "projectId",
      "name",
    ]);
    expect(download.querySelector(".content-types")?.textContent).toContain("image/png");
    expect(download.textContent).not.toContain("null");
    expect(download.querySelector("table.errors")?.textContent).toContain("404");

    const guide = dom.document.getElementById(MODEL_SERVERS_DOCS_ANCHOR)!;
    expect(guide.querySelector("h2")?.textContent).toBe("Model servers");
    expect(guide.textContent).toContain("MODEL_SERVER_URL");
  });

  it("badges the features this deployment cannot run, linking those that need a model server to the guide", async () => {
    const availability = new Map(
      FEATURES.map((feature) => [
        feature.id,
        feature.id === "image-generation"
          ? { available: false, needsModelServer: true, reason: null }
          : feature.id === "speech-to-text"
            ? { available: false, needsModelServer: false, reason: "The model server could not be reached." }
            : { available: true, needsModelServer: false, reason: null },
      ]),
    );
    await renderPage(withAvailability(buildOpenApiDocument(), availability));

    const generation = dom.document.getElementById("imageGeneration")!;
    const badge = generation.querySelector("h2 .badge")!;
    expect(badge.textContent).toBe("Needs a model server");
    expect(badge.getAttribute("href")).toBe(`#${MODEL_SERVERS_DOCS_ANCHOR}`);
    expect(generation.querySelector(".notice")?.textContent).toBe(FEATURE_NEEDS_MODEL_SERVER);

    const transcription = dom.document.getElementById("speechToText")!;
    expect(transcription.querySelector("h2 .badge")?.textContent).toBe("Unavailable");
    expect(transcription.querySelector(".notice")?.textContent).toBe(
      "The model server could not be reached.",
    );

    expect(dom.document.getElementById("imageBackgroundRemoval")!.querySelector(".badge")).toBeNull();
    const navBadges = [...dom.document.querySelectorAll(".nav-link .nav-badge")];
    expect(navBadges.map((node) => node.textContent)).toEqual(["needs server", "unavailable"]);
  });
});
