import { Script } from "node:vm";
import {
  FEATURE_NEEDS_MODEL_SERVER,
  FEATURES,
  MODEL_SERVERS_DOCS_PATH,
  NEEDS_MODEL_SERVER_BADGE,
  UNAVAILABLE_BADGE,
} from "@prism/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { withAvailability } from "./availability";
import { buildOpenApiDocument } from "./document";
import { REFERENCE_SCRIPT_PATH, SCALAR_SCRIPT_PATH } from "./openapi.routes";

/**
 * The API reference page as the real app serves it: Scalar's bundle and the start-up script from this
 * origin only, under the app's Content-Security-Policy (scripts from 'self', no inline script).
 */
describe("API reference page", () => {
  let testApp: TestApp;
  const get = (url: string) => testApp.app.inject({ method: "GET", url });

  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(async () => {
    await testApp?.close();
  });

  it("loads only scripts of this origin, which the page's CSP allows, and no inline script", async () => {
    const page = await get("/docs");
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toMatch(/^text\/html/);
    const sources = [...page.body.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].map(
      ([, attributes, body]) => {
        expect(body?.trim()).toBe("");
        return /\bsrc="([^"]+)"/.exec(attributes ?? "")?.[1];
      },
    );
    expect(sources).toEqual([SCALAR_SCRIPT_PATH, REFERENCE_SCRIPT_PATH]);
    // Nothing from another origin: no CDN, no hosted fonts.
    expect(page.body).not.toMatch(/(?:src|href)="(?:https?:)?\/\//);
    const csp = String(page.headers["content-security-policy"]);
    const scriptSrc = /script-src ([^;]*)/.exec(csp)?.[1];
    expect(scriptSrc).toBe("'self'");
  });

  it("leads back to the console from the top of the page", async () => {
    const page = await get("/docs");
    expect(page.body).toMatch(/<a href="\/home"[^>]*>&larr; Back to the console<\/a>/);
  });

  it("serves Scalar's bundle and the start-up script as JavaScript that parses", async () => {
    const bundle = await get(SCALAR_SCRIPT_PATH);
    expect(bundle.statusCode).toBe(200);
    expect(bundle.headers["content-type"]).toMatch(/^application\/javascript/);
    expect(bundle.body).toContain("createApiReference");
    expect(() => new Script(bundle.body)).not.toThrow();

    const start = await get(REFERENCE_SCRIPT_PATH);
    expect(start.statusCode).toBe(200);
    expect(start.headers["content-type"]).toMatch(/^text\/javascript/);
    expect(() => new Script(start.body)).not.toThrow();
    expect(start.body).toContain('url: "/v1/openapi.json"');
    expect(start.body).toContain("withDefaultFonts: false");
  });

  it("sends the plugin's own page, which would start Scalar inline, to /docs", async () => {
    for (const url of ["/docs/scalar", "/docs/scalar/"]) {
      const answer = await get(url);
      expect(answer.statusCode).toBe(302);
      expect(answer.headers.location).toBe("/docs");
    }
  });

  it("ends the introduction with the model-server guide the console links to", async () => {
    const document = (await get("/v1/openapi.json")).json();
    const description: string = document.info.description;
    // Scalar anchors the introduction's headings as `description/<slug of the heading>`.
    expect(MODEL_SERVERS_DOCS_PATH).toBe("/docs#description/model-servers");
    const guide = description.slice(description.indexOf("### Model servers"));
    expect(guide).not.toBe(description);
    for (const variable of ["MODEL_SERVER_URL", "MODEL_SERVER_API_KEY", "MODEL_SERVER_FEATURES"]) {
      expect(guide).toContain(variable);
    }
  });

  it("badges the features this deployment cannot run and says why, linking to the guide", () => {
    const availability = new Map(
      FEATURES.map((feature) => [
        feature.id,
        feature.id === "image-generation"
          ? { available: false, needsModelServer: true, reason: null }
          : feature.id === "speech-to-text"
            ? { available: false, needsModelServer: false, reason: "The model server could not be reached." }
            : { available: true, needsModelServer: false, reason: null },
      ]),
    );
    const plain = buildOpenApiDocument();
    const document = withAvailability(plain, availability);
    const operation = (id: string) => {
      const feature = FEATURES.find((candidate) => candidate.id === id)!;
      return document.paths[feature.endpoint]!.post! as {
        description: string;
        "x-badges"?: { name: string }[];
      };
    };
    const original = (id: string) =>
      (
        plain.paths[FEATURES.find((candidate) => candidate.id === id)!.endpoint]!.post! as {
          description: string;
        }
      ).description;

    expect(operation("image-generation")["x-badges"]?.map((badge) => badge.name)).toEqual([
      NEEDS_MODEL_SERVER_BADGE,
    ]);
    expect(operation("image-generation").description).toBe(
      `**${NEEDS_MODEL_SERVER_BADGE}.** ${FEATURE_NEEDS_MODEL_SERVER} See [Model servers](${MODEL_SERVERS_DOCS_PATH}).\n\n${original("image-generation")}`,
    );
    expect(operation("speech-to-text")["x-badges"]?.map((badge) => badge.name)).toEqual([UNAVAILABLE_BADGE]);
    expect(operation("speech-to-text").description).toContain("The model server could not be reached.");
    expect(operation("image-background-removal")["x-badges"]).toBeUndefined();
    expect(operation("image-background-removal").description).toBe(original("image-background-removal"));
  });
});
