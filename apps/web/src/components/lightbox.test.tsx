import { MantineProvider } from "@mantine/core";
import { render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SizedImage } from "../test/sized-image";
import { Lightbox, wrapIndex } from "./lightbox";

beforeEach(() => {
  vi.stubGlobal("Image", SizedImage);
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("Lightbox", () => {
  it("fits the open picture to the screen and says its caption and size", async () => {
    render(
      <MantineProvider>
        <Lightbox
          images={[
            { src: "/v1/files/a/451x300", alt: "Original", caption: "Original · 3 Nov 2026" },
            { src: "/v1/files/b/1600x1200", alt: "Result", caption: "Result · 3 Nov 2026" },
          ]}
          index={0}
          onIndexChange={() => {}}
          onClose={() => {}}
        />
      </MantineProvider>,
    );
    const dialog = await screen.findByRole("dialog", { name: "Image gallery" });
    const shown = dialog.querySelector<HTMLImageElement>(
      '.yarl__slide_current img[src="/v1/files/a/451x300"]',
    );
    expect(shown).not.toBeNull();
    // Stretched to the slide (the library alone would cap it at 451 px wide), keeping its shape.
    expect(shown?.style.width).toBe("100%");
    expect(shown?.style.height).toBe("100%");
    expect(shown?.style.maxWidth).toBe("100%");
    expect(shown?.style.objectFit).toBe("contain");
    const info = dialog.querySelector<HTMLElement>(".yarl__slide_current [data-testid=lightbox-info]");
    await vi.waitFor(() => expect(info).toHaveTextContent("Original · 3 Nov 2026451 × 300 px"));
  });

  it("wraps around in both directions", () => {
    expect(wrapIndex(2, 2)).toBe(0);
    expect(wrapIndex(-1, 2)).toBe(1);
  });
});
