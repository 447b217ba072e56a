import { createTheme, type MantineColorsTuple } from "@mantine/core";

// The brand colour: a blue-violet, used sparingly (active navigation, primary buttons, the mark).
const prism: MantineColorsTuple = [
  "#f1efff",
  "#e0dbff",
  "#beb3fb",
  "#9b88f7",
  "#7d63f3",
  "#6a4cf1",
  "#5f40f1",
  "#4f32d7",
  "#452bc1",
  "#3922aa",
];

export const theme = createTheme({
  primaryColor: "prism",
  primaryShade: 6,
  colors: { prism },
  fontFamily:
    'Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  fontFamilyMonospace: 'ui-monospace, "SFMono-Regular", "JetBrains Mono", Menlo, Consolas, monospace',
  headings: { fontWeight: "650" },
  defaultRadius: "md",
  cursorType: "pointer",
  components: {
    Button: { defaultProps: { radius: "md" } },
    Modal: {
      // The corner's close button has no words of its own: it is named for screen readers.
      defaultProps: {
        radius: "lg",
        overlayProps: { backgroundOpacity: 0.4, blur: 2 },
        // "Close dialog", apart from the Close buttons many dialogs have among their own actions.
        closeButtonProps: { "aria-label": "Close dialog" },
      },
      styles: { title: { fontWeight: 600, fontSize: "var(--mantine-font-size-lg)" } },
    },
    Drawer: { defaultProps: { closeButtonProps: { "aria-label": "Close panel" } } },
    Menu: { defaultProps: { radius: "md", shadow: "md" } },
    // A link inside a sentence is told apart by more than its colour (WCAG 1.4.1, axe's link-in-text-block).
    Anchor: { defaultProps: { underline: "always" } },
    Paper: { defaultProps: { radius: "lg" } },
    Card: { defaultProps: { radius: "lg" } },
  },
});
