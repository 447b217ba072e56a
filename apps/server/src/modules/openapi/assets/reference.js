// Starts Scalar's API reference (served beside this file from the @scalar/fastify-api-reference
// package) on the console's own OpenAPI document. A file rather than an inline script: the page's
// Content-Security-Policy allows only scripts from this origin.
Scalar.createApiReference("#reference", {
  url: "/v1/openapi.json",
  // No fonts, proxy, telemetry or hosted agent from third parties: the page talks only to this server.
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: "never",
  hideClientButton: true,
  documentDownloadType: "json",
  // Scalar's light theme writes secondary text, placeholders, badges and the method labels (POST in
  // green, …) below WCAG AA's 4.5:1 on its own backgrounds (#fff, #f6f6f6, #e7e7e7), which axe-core
  // reports as serious (issue 33). These shades keep the theme's hues at 4.5:1 or more on all three.
  // Doubling the class outranks the theme's own `.light-mode` rules, whichever comes last.
  customCss: `
    .light-mode.light-mode {
      --scalar-color-2: #595959;
      --scalar-color-3: #666666;
      --scalar-color-accent: #005fa0;
      --scalar-color-green: #036b48;
      --scalar-color-red: #b00005;
      --scalar-color-yellow: #7a5c00;
      --scalar-color-blue: #005fa0;
      --scalar-color-orange: #a33600;
      --scalar-color-query: #005e62;
    }
  `,
});
