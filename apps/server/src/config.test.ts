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

  it("turns a hosted platform on with its one variable, and checks the rest", () => {
    const config = loadConfig({
      REPLICATE_API_TOKEN: "r8_token",
      FAL_KEY: "fal-key",
      COMFYUI_URLS: "http://gpu-1:8188/, http://gpu-2:8188",
      FEATURE_PROVIDERS: "image-upscaling=comfyui,speech-to-text=fal",
    });
    expect(config.inference.replicate).toEqual({ apiToken: "r8_token", baseUrl: undefined, capacity: 8 });
    expect(config.inference.fal).toMatchObject({ apiKey: "fal-key", capacity: 8 });
    expect(config.inference.stability).toBeUndefined();
    expect(config.inference.comfyui).toEqual({ urls: ["http://gpu-1:8188", "http://gpu-2:8188"] });
    expect(config.inference.overrides).toEqual({ "image-upscaling": "comfyui", "speech-to-text": "fal" });
    expect(() => loadConfig({ COMFYUI_URLS: "gpu-1:8188" })).toThrow(
      /COMFYUI_URLS: "gpu-1:8188" is not an http\(s\) URL/,
    );
    expect(() => loadConfig({ REPLICATE_CONCURRENCY: "0" })).toThrow(/REPLICATE_CONCURRENCY/);
    expect(() => loadConfig({ FEATURE_PROVIDERS: "reimagine=midjourney" })).toThrow(
      /FEATURE_PROVIDERS: "reimagine=midjourney" must look like feature-id=builtin\|http\|openai\|replicate\|fal\|stability\|comfyui/,
    );
  });

  it("treats empty strings as unset, as .env files write them", () => {
    const config = loadConfig({ DATABASE_URL: "", PUBLIC_URL: "" });
    expect(config.databaseUrl).toBeUndefined();
    expect(config.publicUrl).toBeUndefined();
  });

  it("listens on the loopback interface unless HOST says otherwise", () => {
    expect(loadConfig({}).host).toBe("127.0.0.1");
    expect(loadConfig({ HOST: "0.0.0.0" }).host).toBe("0.0.0.0");
  });

  it("keeps only the origin of PUBLIC_URL and does not trust the dev server in production", () => {
    const config = loadConfig({ ...PRODUCTION, PUBLIC_URL: "https://console.example.com/app/" });
    expect(config.publicUrl).toBe("https://console.example.com");
    expect(config.isProduction).toBe(true);
    expect(config.trustedOrigins).toEqual([]);
  });
});

const PRODUCTION = {
  APP_ENV: "production",
  PUBLIC_URL: "https://console.example.com",
  SMTP_URL: "smtp://mail.example.com:587",
  STRIPE_SECRET_KEY: "sk_live_x",
  STRIPE_PUBLISHABLE_KEY: "pk_live_x",
  STRIPE_WEBHOOK_SECRET: "whsec_x",
  METRICS_TOKEN: "metrics-token-of-32-random-chars",
  APP_SECRET: "app-secret-of-at-least-32-random-chars",
};

describe("production configuration", () => {
  it("starts with Stripe, SMTP and PUBLIC_URL", () => {
    const config = loadConfig(PRODUCTION);
    expect(config.isProduction).toBe(true);
    expect(config.stripe?.secretKey).toBe("sk_live_x");
    expect(config.mail.smtpUrl).toBe("smtp://mail.example.com:587");
  });

  it.each([
    ["STRIPE_SECRET_KEY", /STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY: required when APP_ENV=production/],
    [
      "STRIPE_PUBLISHABLE_KEY",
      /STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY: required when APP_ENV=production/,
    ],
    ["STRIPE_WEBHOOK_SECRET", /STRIPE_WEBHOOK_SECRET: required when APP_ENV=production/],
    ["SMTP_URL", /SMTP_URL: required when APP_ENV=production/],
    ["PUBLIC_URL", /PUBLIC_URL: required when APP_ENV=production/],
    ["METRICS_TOKEN", /METRICS_TOKEN: required when APP_ENV=production/],
    ["APP_SECRET", /APP_SECRET: required when APP_ENV=production/],
  ])("refuses production without %s and names it", (variable, message) => {
    const env: Record<string, string> = { ...PRODUCTION, [variable]: "" };
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it("refuses the public development APP_SECRET in production, and a short one anywhere", () => {
    const developmentSecret = loadConfig({ APP_ENV: "development" }).appSecret;
    expect(() => loadConfig({ ...PRODUCTION, APP_SECRET: developmentSecret })).toThrow(
      /APP_SECRET: required when APP_ENV=production, and not the development default/,
    );
    expect(() => loadConfig({ APP_SECRET: "too-short" })).toThrow(
      /APP_SECRET: must be at least 32 characters/,
    );
    expect(loadConfig(PRODUCTION).appSecret).toBe(PRODUCTION.APP_SECRET);
  });

  it("asks nothing of development and test", () => {
    expect(loadConfig({ APP_ENV: "development" }).stripe).toBeUndefined();
    expect(loadConfig({ APP_ENV: "test" }).mail.smtpUrl).toBeUndefined();
  });
});

describe("TRUST_PROXY", () => {
  it("takes the proxies' addresses or CIDR ranges, or a hop count, and believes nothing by default", () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: "false" }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: "0" }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: "2" }).trustProxy).toEqual({ hops: 2 });
    expect(loadConfig({ TRUST_PROXY: "10.0.0.0/8, 192.168.1.10,2001:db8::/32" }).trustProxy).toEqual({
      addresses: ["10.0.0.0/8", "192.168.1.10", "2001:db8::/32"],
    });
    for (const bad of ["yes", "10.0.0.0/33", "10.0.0.300", "::1/129", "proxy.internal", "11"]) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY/);
    }
  });

  it("refuses true in production, saying what to set instead, and allows it elsewhere", () => {
    expect(() => loadConfig({ ...PRODUCTION, TRUST_PROXY: "true" })).toThrow(
      /TRUST_PROXY: "true" believes every X-Forwarded-For entry.*Set the number of proxies in front of the server \(1 behind one load balancer\) or their addresses/,
    );
    expect(loadConfig({ ...PRODUCTION, TRUST_PROXY: "10.0.0.0/8" }).trustProxy).toEqual({
      addresses: ["10.0.0.0/8"],
    });
    expect(loadConfig({ TRUST_PROXY: "true" }).trustProxy).toBe(true);
  });
});

describe("seller details", () => {
  it("prints the product's name by default and splits the address at newlines or a literal \\n", () => {
    expect(loadConfig({}).seller).toEqual({ name: "Prism", addressLines: [], taxId: undefined });
    const configured = loadConfig({
      SELLER_NAME: "Prism Imaging GmbH",
      SELLER_ADDRESS: "Torstraße 1\\n10119 Berlin\nGermany",
      SELLER_TAX_ID: "DE123456789",
    });
    expect(configured.seller).toEqual({
      name: "Prism Imaging GmbH",
      addressLines: ["Torstraße 1", "10119 Berlin", "Germany"],
      taxId: "DE123456789",
    });
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

describe("compose files", () => {
  it("give the app only variables the server reads, and a production set it accepts", async () => {
    const { readFileSync } = await import("node:fs");
    const source = readFileSync(new URL("./config.ts", import.meta.url), "utf8");
    const read = new Set([...source.matchAll(/^ {2}([A-Z0-9_]+): /gm)].map((match) => match[1]));
    for (const file of ["compose.yaml", "compose.dev.yaml"]) {
      const text = readFileSync(new URL(`../../../${file}`, import.meta.url), "utf8");
      // The app service's `environment:` block: six-space-indented keys until the indentation drops.
      const block = /^ {2}app:\n(?:(?: {4}.*|)\n)*? {4}environment:\n((?: {6}.*\n)+)/m.exec(text)?.[1] ?? "";
      const variables = [...block.matchAll(/^ {6}([A-Z0-9_]+):/gm)].map((match) => match[1]);
      expect(variables.length, file).toBeGreaterThan(0);
      for (const variable of variables) expect(read.has(variable), `${file}: ${variable}`).toBe(true);
    }
    // What compose.yaml sets, with the keys an operator supplies, starts in production.
    const compose = readFileSync(new URL("../../../compose.yaml", import.meta.url), "utf8");
    const env: Record<string, string> = {};
    for (const match of compose.matchAll(/^ {6}([A-Z0-9_]+): (.*)$/gm)) {
      const [, name, raw = ""] = match;
      if (!name || !read.has(name)) continue;
      env[name] = raw.replace(/^\$\{[A-Z_]+:-(.*)\}$/, "$1").replace(/^"(.*)"$/, "$1");
    }
    const config = loadConfig({
      ...env,
      STRIPE_SECRET_KEY: "sk_test_x",
      STRIPE_PUBLISHABLE_KEY: "pk_test_x",
      STRIPE_WEBHOOK_SECRET: "whsec_x",
      METRICS_TOKEN: "a-metrics-token-of-some-length",
      APP_SECRET: "an-app-secret-of-at-least-32-characters",
    });
    expect(config.isProduction).toBe(true);
    expect(config.databaseUrl).toMatch(/^postgres:\/\/.+@postgres:5432\//);
    expect(config.s3?.bucket).toBe("prism");
    expect(config.mail.smtpUrl).toBe("smtp://mailpit:1025");
  });
});
