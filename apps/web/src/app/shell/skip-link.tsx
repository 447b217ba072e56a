import type { MouseEvent } from "react";
import classes from "./shell.module.css";

/** The id of the routed page's content, where the skip link lands. */
export const MAIN_CONTENT_ID = "main-content";
export const SKIP_LINK_LABEL = "Skip to main content";

/**
 * The first stop of the keyboard on every signed-in page: Enter moves focus past the top bar's pickers
 * and the sidebar's menu to the page itself, whose controls are then the next Tab (a playground's upload
 * area took some twenty Tabs before).
 */
export function SkipLink() {
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    const main = document.getElementById(MAIN_CONTENT_ID);
    if (!main) return;
    // Focus rather than the hash alone: the router owns the URL, and the hash would not move focus.
    event.preventDefault();
    main.focus();
    main.scrollIntoView({ block: "start" });
  };
  return (
    <a href={`#${MAIN_CONTENT_ID}`} className={classes.skipLink} onClick={skip}>
      {SKIP_LINK_LABEL}
    </a>
  );
}
