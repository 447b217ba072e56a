import { Loader } from "@mantine/core";

/**
 * A small spinner standing for content on its way, named for screen readers. Mantine's Loader is a
 * `<span>`, on which a name without a role is prohibited (axe-core's aria-prohibited-attr): it is an
 * indeterminate progress bar.
 */
export function LoadingIndicator({ label }: { label: string }) {
  return <Loader size="sm" role="progressbar" aria-label={label} />;
}
