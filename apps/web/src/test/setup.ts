import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterAll, afterEach, beforeAll } from "vitest";
import { server } from "./msw";

// findBy*/waitFor give up after 1 s by default; rendering a page of 50 rows in jsdom on a loaded two-core
// CI machine can take longer without anything being wrong (the test's own timeout still bounds it).
configure({ asyncUtilTimeout: 10_000 });

// jsdom lacks the layout APIs Mantine relies on (color scheme queries, ScrollArea, Popover sizing).
if (!window.matchMedia) {
  Object.defineProperty(window, "matchMedia", {
    writable: true,
    value: (query: string): MediaQueryList => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }),
  });
}

class ResizeObserverStub implements ResizeObserver {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}
if (!window.ResizeObserver) window.ResizeObserver = ResizeObserverStub;

// jsdom has no FontFaceSet; Mantine's autosizing Textarea listens on it.
if (!("fonts" in document)) {
  Object.defineProperty(document, "fonts", {
    configurable: true,
    value: { addEventListener: () => {}, removeEventListener: () => {} },
  });
}

// Object URLs of chosen files (previews, mask editor); jsdom has none.
if (!URL.createObjectURL) URL.createObjectURL = () => "blob:preview";
if (!URL.revokeObjectURL) URL.revokeObjectURL = () => {};

// jsdom has no CSS.registerProperty; react-compare-slider registers its custom properties with it.
if (typeof CSS !== "undefined" && !("registerProperty" in CSS))
  Object.assign(CSS, { registerProperty: () => {} });

// jsdom has no IntersectionObserver (Mantine's useIntersection needs one): nothing is ever in view.
class IntersectionObserverStub implements IntersectionObserver {
  readonly root = null;
  readonly rootMargin = "0px";
  readonly scrollMargin = "0px";
  readonly thresholds = [0];
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
  takeRecords(): IntersectionObserverEntry[] {
    return [];
  }
}
if (!window.IntersectionObserver) window.IntersectionObserver = IntersectionObserverStub;

if (!Element.prototype.scrollIntoView) Element.prototype.scrollIntoView = () => {};

// jsdom throws on pseudo-element arguments; Mantine only needs the element's own style.
const { getComputedStyle } = window;
window.getComputedStyle = (element: Element) => getComputedStyle(element);

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));

afterEach(() => {
  cleanup();
  server.resetHandlers();
});

afterAll(() => server.close());
