import { MantineProvider } from "@mantine/core";
import { act, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { GlobalLoadingOverlay } from "./global-loading-overlay";
import { hideLoading, showLoading } from "./loading-store";

function renderOverlay() {
  render(
    <MantineProvider>
      <GlobalLoadingOverlay />
    </MantineProvider>,
  );
}

function particles(): Element[] {
  return Array.from(document.querySelectorAll("[data-particle]"));
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("GlobalLoadingOverlay", () => {
  it("shows the particle effect with 100 particles while something loads, and nothing after", async () => {
    renderOverlay();
    expect(particles()).toHaveLength(0);
    act(() => showLoading());
    expect(await screen.findByLabelText("Loading")).toBeInTheDocument();
    expect(particles()).toHaveLength(100);
    expect(document.querySelector("[data-particle-field]")).not.toHaveAttribute("data-reduced-motion");
    // Particles differ: they are spread around, not stacked on one spot.
    const radii = new Set(
      particles().map((particle) => (particle as HTMLElement).style.getPropertyValue("--radius")),
    );
    expect(radii.size).toBeGreaterThan(20);
    act(() => hideLoading());
    await vi.waitFor(() => expect(particles()).toHaveLength(0));
  });

  it("keeps the particles still for people who prefer reduced motion", async () => {
    const matchMedia = window.matchMedia;
    vi.spyOn(window, "matchMedia").mockImplementation((query: string) => ({
      ...matchMedia(query),
      matches: query.includes("prefers-reduced-motion"),
    }));
    renderOverlay();
    act(() => showLoading());
    await screen.findByLabelText("Loading");
    expect(particles()).toHaveLength(100);
    await vi.waitFor(() =>
      expect(document.querySelector("[data-particle-field]")).toHaveAttribute("data-reduced-motion"),
    );
    act(() => hideLoading());
  });
});
