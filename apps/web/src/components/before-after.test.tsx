import { MantineProvider } from "@mantine/core";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SizedImage } from "../test/sized-image";
import { BeforeAfter } from "./before-after";

beforeEach(() => {
  vi.stubGlobal("Image", SizedImage);
});

afterEach(() => {
  vi.unstubAllGlobals();
});

function renderComparison(props: Parameters<typeof BeforeAfter>[0]) {
  render(
    <MantineProvider>
      <BeforeAfter {...props} />
    </MantineProvider>,
  );
}

describe("BeforeAfter", () => {
  it("shows both pictures with their sizes around a slider the arrow keys move", async () => {
    const user = userEvent.setup();
    renderComparison({ before: "/v1/files/before/451x300", after: "/v1/files/after/902x600" });
    const slider = await screen.findByRole("slider");
    expect(slider).toHaveAttribute("aria-valuenow", "50");
    expect(screen.getByTestId("before-size")).toHaveTextContent("Before · 451 × 300 px");
    expect(screen.getByTestId("after-size")).toHaveTextContent("After · 902 × 600 px");
    expect(screen.getByRole("img", { name: "Before" })).toHaveAttribute("src", "/v1/files/before/451x300");
    expect(screen.getByRole("img", { name: "After" })).toHaveAttribute("src", "/v1/files/after/902x600");
    // The frame takes the result's shape and is never taller than asked.
    expect(screen.getByTestId("before-after").style.aspectRatio).toBe("902 / 600");

    slider.focus();
    await user.keyboard("{ArrowRight}{ArrowRight}");
    expect(slider).toHaveAttribute("aria-valuenow", "60");
    await user.keyboard("{ArrowLeft}");
    expect(slider).toHaveAttribute("aria-valuenow", "55");
  });

  it("draws the original where it sits inside an extended result", async () => {
    renderComparison({
      before: "/v1/files/before/200x100",
      after: "/v1/files/after/400x150",
      inset: { top: 50, right: 100, bottom: 0, left: 100 },
    });
    const before = await screen.findByRole("img", { name: "Before" });
    expect(before.style.left).toBe("25%");
    expect(before.style.width).toBe("50%");
    expect(before.style.top).toBe("33.33333333333333%");
    expect(before.style.height).toBe("66.66666666666666%");
  });
});
