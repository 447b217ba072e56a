import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEngine, type Engine } from "./engine";
import { FEATURE_IDS } from "./types";

let engine: Engine;
beforeAll(() => {
  engine = createEngine({ workers: 1 });
});
afterAll(() => engine.close());

describe("engine", () => {
  it("reports availability for every feature, with a reason when unavailable", async () => {
    const report = await engine.availability();
    expect(Object.keys(report).sort()).toEqual([...FEATURE_IDS].sort());
    for (const entry of Object.values(report)) {
      expect(entry.available || typeof entry.reason === "string").toBe(true);
    }
    expect(report["object-removal"]).toEqual({ available: true });
  });

  it("rejects a job whose required file is missing", async () => {
    await expect(
      engine.run("object-removal", { image: Buffer.from("x"), mask: Buffer.alloc(0) }),
    ).rejects.toMatchObject({ code: "invalid-input" });
  });

  it("rejects an image that cannot be decoded", async () => {
    await expect(
      engine.run("image-background-removal", { image: Buffer.from("definitely not an image") }),
    ).rejects.toMatchObject({ code: "invalid-input" });
  });

  it("stops a job past its timeout and still runs the next one", async () => {
    const image = await sharp({ create: { width: 400, height: 300, channels: 3, background: "#48a" } })
      .png()
      .toBuffer();
    const extend = { image, top: 200, bottom: 200, left: 200, right: 200 };
    await expect(engine.run("image-extension", extend, { timeoutMs: 50 })).rejects.toMatchObject({
      code: "timeout",
    });
    const output = await engine.run("image-extension", { image, top: 4, bottom: 0, left: 0, right: 0 });
    expect(output).toMatchObject({ kind: "image", width: 400, height: 304 });
  });

  it("rejects a feature it does not implement", async () => {
    await expect(engine.run("image-generation" as never, {} as never)).rejects.toMatchObject({
      code: "unavailable",
    });
  });
});
