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
});
