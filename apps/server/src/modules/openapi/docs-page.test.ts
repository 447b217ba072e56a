// @vitest-environment jsdom
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { FEATURES } from "@prism/contract";
import { afterEach, describe, expect, it, vi } from "vitest";
import { buildOpenApiDocument } from "./openapi";
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

  it("renders every endpoint with its price, fields, cURL example and errors", async () => {
    const spec = buildOpenApiDocument();
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
      expect(dom.document.querySelectorAll("section.operation")).toHaveLength(FEATURES.length),
    );

    expect(fetchMock).toHaveBeenCalledWith("/v1/openapi.json", expect.anything());
    expect(dom.document.querySelector(".intro h1")?.textContent).toBe("Prism API");
    expect(dom.document.querySelectorAll(".nav-link[data-search]")).toHaveLength(FEATURES.length);

    const removal = dom.document.getElementById("imageBackgroundRemoval")!;
    expect(removal.querySelector(".endpoint code")?.textContent).toBe("/v1/images/background-removal");
    expect(removal.querySelector(".price")?.textContent).toBe("$0.010 per call");
    expect(removal.querySelector("td.name code")?.textContent).toBe("image");
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
});
