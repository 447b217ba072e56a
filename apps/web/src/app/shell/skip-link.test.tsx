import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { MAIN_CONTENT_ID, SKIP_LINK_LABEL, SkipLink } from "./skip-link";

describe("SkipLink", () => {
  it("is the first Tab stop and moves the keyboard to the page's content, past the menus", async () => {
    render(
      <>
        <SkipLink />
        <nav>
          {Array.from({ length: 20 }, (_, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list of menu stand-ins.
            <a key={index} href={`/menu-${index}`}>
              Menu {index}
            </a>
          ))}
        </nav>
        <div id={MAIN_CONTENT_ID} tabIndex={-1}>
          <button type="button">Upload</button>
        </div>
      </>,
    );
    const user = userEvent.setup();
    await user.tab();
    expect(screen.getByRole("link", { name: SKIP_LINK_LABEL })).toHaveFocus();
    await user.keyboard("{Enter}");
    expect(document.getElementById(MAIN_CONTENT_ID)).toHaveFocus();
    await user.tab();
    expect(screen.getByRole("button", { name: "Upload" })).toHaveFocus();
  });
});
