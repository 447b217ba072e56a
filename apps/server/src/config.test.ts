import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config";

describe("loadConfig", () => {
  it("gives the embedded defaults with an empty environment", () => {
    const config = loadConfig({}, "/srv/prism");
    expect(config.port).toBe(3000);
    expect(config.appEnv).toBe("development");
    expect(config.dataDir).toBe("/srv/prism/data");
    expect(config.databaseUrl).toBeUndefined();
    expect(config.trustedOrigins).toEqual(["http://localhost:5173"]);
  });

  it("refuses a bad value and names the variable", () => {
    expect(() => loadConfig({ PORT: "eighty" })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: "eighty" })).toThrow(/PORT/);
    expect(() => loadConfig({ APP_ENV: "staging" })).toThrow(
      /APP_ENV: must be one of development, test, production/,
    );
    expect(() => loadConfig({ DATABASE_URL: "mysql://x" })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ PUBLIC_URL: "not a url" })).toThrow(/PUBLIC_URL/);
    expect(() => loadConfig({ TRUSTED_ORIGINS: "https://ok.example, nope" })).toThrow(/TRUSTED_ORIGINS/);
  });

  it("treats empty strings as unset, as .env files write them", () => {
    const config = loadConfig({ DATABASE_URL: "", PUBLIC_URL: "" });
    expect(config.databaseUrl).toBeUndefined();
    expect(config.publicUrl).toBeUndefined();
  });

  it("keeps only the origin of PUBLIC_URL and does not trust the dev server in production", () => {
    const config = loadConfig({ APP_ENV: "production", PUBLIC_URL: "https://console.example.com/app/" });
    expect(config.publicUrl).toBe("https://console.example.com");
    expect(config.isProduction).toBe(true);
    expect(config.trustedOrigins).toEqual([]);
  });
});

describe(".env.example", () => {
  it("lists exactly the variables the server reads", async () => {
    const { readFileSync } = await import("node:fs");
    const example = readFileSync(new URL("../../../.env.example", import.meta.url), "utf8");
    const listed = [...example.matchAll(/^([A-Z0-9_]+)=/gm)].map((match) => match[1]).sort();
    const source = readFileSync(new URL("./config.ts", import.meta.url), "utf8");
    const read = [...source.matchAll(/^ {2}([A-Z0-9_]+): /gm)].map((match) => match[1]).sort();
    expect(listed).toEqual(read);
  });
});
