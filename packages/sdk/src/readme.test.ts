import { execFile, execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { SDK_PACKAGE_NAME } from "@prism/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INPUT_PNG, type PrismServer, RESULT_PNG, startPrismServer } from "../test/prism-server";
import { FEATURES } from "./contract.generated.js";

const run = promisify(execFile);
const packageDir = fileURLToPath(new URL("../", import.meta.url));
const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
const readme = readFileSync(join(packageDir, "README.md"), "utf8");
const RUNNABLE_MARK = "<!-- runs as written: readme.test.ts -->";

/** The README's code blocks marked as runnable, in order. */
function runnableExamples(): string[] {
  return readme
    .split(RUNNABLE_MARK)
    .slice(1)
    .map((after) => /^\s*```ts\n([\s\S]*?)```/.exec(after)?.[1] ?? "");
}

let server: PrismServer;
let projectDir: string;

beforeAll(async () => {
  // The package as it is published: built by its own script into dist/.
  execFileSync(`${repoRoot}node_modules/.bin/tsc`, ["-p", "tsconfig.build.json"], { cwd: packageDir });
  server = await startPrismServer();
  // A user's project: `"type": "module"`, the package installed, a photo beside the example.
  projectDir = mkdtempSync(join(tmpdir(), "prism-sdk-readme-"));
  writeFileSync(join(projectDir, "package.json"), JSON.stringify({ type: "module" }));
  mkdirSync(join(projectDir, "node_modules", "@prism"), { recursive: true });
  symlinkSync(packageDir, join(projectDir, "node_modules", "@prism", "sdk"), "dir");
  writeFileSync(join(projectDir, "photo.png"), INPUT_PNG);
}, 180_000);

afterAll(async () => {
  await server?.close();
  if (projectDir) rmSync(projectDir, { recursive: true, force: true });
});

describe("the README", () => {
  it("has two runnable examples", () => {
    expect(runnableExamples()).toHaveLength(2);
    for (const example of runnableExamples()) expect(example).toContain('from "@prism/sdk"');
  });

  it("runs its feature call example as written: the result is saved and the cost printed", async () => {
    const [example = ""] = runnableExamples();
    writeFileSync(join(projectDir, "example.ts"), example);
    const { stdout } = await run(process.execPath, ["example.ts"], {
      cwd: projectDir,
      env: { ...process.env, PRISM_API_KEY: server.apiKey, PRISM_BASE_URL: server.baseUrl },
    });
    expect(stdout).toMatch(/^Saved cutout\.png \(request [0-9a-f-]{36}, cost \$0\.01, balance \$9\.99\)\n$/);
    expect(readFileSync(join(projectDir, "cutout.png"))).toEqual(RESULT_PNG);
  });

  it("prints the error's code, message and request id when the call is refused", async () => {
    const [example = ""] = runnableExamples();
    writeFileSync(join(projectDir, "example.ts"), example);
    const failed = await run(process.execPath, ["example.ts"], {
      cwd: projectDir,
      env: { ...process.env, PRISM_API_KEY: "sk-revoked", PRISM_BASE_URL: server.baseUrl },
    }).catch((error: { code: number; stderr: string }) => error);
    expect(failed).toMatchObject({ code: 1 });
    expect((failed as { stderr: string }).stderr).toMatch(/^401 invalid-api-key: .+ \(request \S+\)\n$/);
  });

  it("runs its asynchronous example as written: submitted, then ended with a result", async () => {
    const [, example = ""] = runnableExamples();
    writeFileSync(join(projectDir, "submit.ts"), example);
    const { stdout } = await run(process.execPath, ["submit.ts"], {
      cwd: projectDir,
      env: { ...process.env, PRISM_API_KEY: server.apiKey, PRISM_BASE_URL: server.baseUrl },
    });
    expect(stdout).toMatch(
      new RegExp(
        `^Submitted [0-9a-f-]{36}: (queued|running)\\nEnded succeeded, result ${server.baseUrl}/v1/files/\\S+\\n$`,
      ),
    );
  });

  it("names every feature's method", () => {
    for (const feature of FEATURES) expect(readme).toContain(`\`${feature.method}(`);
  });
});

describe("the API reference (/docs)", () => {
  it("shows how to install and call the SDK, with methods it has", async () => {
    const document = (await (await fetch(`${server.baseUrl}/v1/openapi.json`)).json()) as {
      info: { description: string };
    };
    const description = document.info.description;
    expect(description).toContain("### TypeScript SDK");
    expect(description).toContain(`npm install ${SDK_PACKAGE_NAME}`);
    expect(description).toContain(`import { Prism } from "${SDK_PACKAGE_NAME}";`);
    const section = description.slice(description.indexOf("### TypeScript SDK"));
    const called = [...section.matchAll(/prism\.(\w+)\(/g)].map((match) => match[1]);
    expect(called.length).toBeGreaterThan(0);
    for (const method of called) expect(FEATURES.map((feature) => feature.method)).toContain(method);
  });
});

describe("the published package", () => {
  it("is named as the docs say, with an exports map, types, a licence and only dist and docs in it", async () => {
    const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"));
    expect(manifest).toMatchObject({
      name: SDK_PACKAGE_NAME,
      license: "MIT",
      type: "module",
      exports: { ".": { types: "./dist/index.d.ts", import: "./dist/index.js" } },
    });
    expect(manifest.private).toBeUndefined();
    expect(manifest.dependencies).toBeUndefined();
    const { stdout } = await run("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
      cwd: packageDir,
    });
    const [packed] = JSON.parse(stdout) as [{ files: { path: string }[] }];
    const files = packed.files.map((file) => file.path).sort();
    expect(files).toEqual(
      expect.arrayContaining(["LICENSE", "README.md", "package.json", "dist/index.js", "dist/index.d.ts"]),
    );
    expect(
      files.filter(
        (file) => !file.startsWith("dist/") && !["LICENSE", "README.md", "package.json"].includes(file),
      ),
    ).toEqual([]);
    expect(files.filter((file) => file.includes("test") || file.includes("parity"))).toEqual([]);
  });

  it("imports nothing from the workspace or from Node at run time, so it loads in browsers", () => {
    const dist = join(packageDir, "dist");
    expect(existsSync(join(dist, "index.js"))).toBe(true);
    for (const file of readdirSync(dist).filter((name) => name.endsWith(".js"))) {
      const source = readFileSync(join(dist, file), "utf8");
      const imports = [...source.matchAll(/(?:import|export)[^"']*from\s*["']([^"']+)["']/g)].map(
        (m) => m[1],
      );
      expect(
        imports.filter((specifier) => !specifier?.startsWith("./")),
        file,
      ).toEqual([]);
      expect(source, file).not.toContain("@prism/contract");
    }
  });
});
