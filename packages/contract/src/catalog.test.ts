import { describe, expect, it } from "vitest";
import { type ZodType, z } from "zod";
import {
  type BodyField,
  billableUnits,
  bodyFieldsOf,
  ENDPOINT_DESCRIPTORS,
  FEATURE_ENDPOINTS,
  FEATURES,
  type FileInput,
  featureByEndpoint,
  featureById,
  featureEndpointSchema,
  formatBillingUnits,
  identityInpaintingFeature,
  imageExtensionFeature,
  imageGenerationFeature,
  objectRemovalFeature,
  pegasusGenerationFeature,
  reimagineFeature,
  textRemovalFeature,
  transcriptionFeature,
  usageColor,
} from "./catalog";
import { DEFAULT_LANGUAGE, LANGUAGES } from "./languages";
import {
  DEFAULT_RESOLUTION,
  GENERATION_MAX_SIDE,
  GENERATION_MIN_SIDE,
  MAX_UPSCALE_PIXELS,
  NAME_MAX_LENGTH,
  PROMPT_MAX_LENGTH,
  REIMAGINE_DENOISE_DEFAULT,
  REIMAGINE_DENOISE_MAX,
  REIMAGINE_DENOISE_MIN,
  REIMAGINE_DENOISE_STEP,
} from "./limits";

/** The playground routes of the spec. */
const SPEC_PLAYGROUND_ROUTES = [
  "/playground/image-generation",
  "/playground/pegasus-generation",
  "/playground/pegasus-training",
  "/playground/generative-fill",
  "/playground/object-removal",
  "/playground/text-removal",
  "/playground/image-extension",
  "/playground/image-background-removal",
  "/playground/image-upscaling",
  "/playground/speech-to-text",
  "/playground/face-swapping",
  "/playground/reimagine",
  "/playground/identity-inpainting",
];

describe("feature catalog", () => {
  it("has the 13 features with unique ids, endpoints and orderPos", () => {
    expect(FEATURES).toHaveLength(13);
    expect(new Set(FEATURES.map((f) => f.id)).size).toBe(13);
    expect(new Set(FEATURES.map((f) => f.endpoint)).size).toBe(13);
    expect(new Set(FEATURES.map((f) => f.orderPos)).size).toBe(13);
  });

  it("covers every playground route of the spec, in menu order", () => {
    expect(FEATURES.map((f) => f.playgroundRoute)).toEqual(SPEC_PLAYGROUND_ROUTES);
    for (const feature of FEATURES) {
      expect(feature.playgroundRoute).toBe(`/playground/${feature.id}`);
    }
  });

  it("lists the same endpoints in the get-requests enum", () => {
    expect([...FEATURE_ENDPOINTS].sort()).toEqual(FEATURES.map((f) => f.endpoint).sort());
    expect(featureEndpointSchema.options).toEqual([...FEATURE_ENDPOINTS]);
    expect(featureEndpointSchema.safeParse("/v1/images/unknown").success).toBe(false);
  });

  it("finds features by endpoint and id", () => {
    for (const feature of FEATURES) {
      expect(featureByEndpoint(feature.endpoint)).toBe(feature);
      expect(featureById(feature.id)).toBe(feature);
    }
    expect(featureByEndpoint("/v1/images/nothing")).toBeUndefined();
  });

  it("keeps the usage descriptors unique and lower-case", () => {
    const keys = ENDPOINT_DESCRIPTORS.map((d) => `${d.endpoint} ${d.callType}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(new Set(ENDPOINT_DESCRIPTORS.map((d) => d.orderPos)).size).toBe(ENDPOINT_DESCRIPTORS.length);
    for (const descriptor of ENDPOINT_DESCRIPTORS) {
      expect(descriptor.callType).toBe(descriptor.callType.toLowerCase());
    }
  });

  it("gives every feature an input and a price", () => {
    for (const feature of FEATURES) {
      expect(Number.isInteger(feature.billing.defaultPriceMicros)).toBe(true);
      expect(feature.billing.defaultPriceMicros).toBeGreaterThan(0);
      const requiredFiles = feature.inputs.files.filter((file) => file.required);
      expect(requiredFiles.length + feature.inputs.body.length).toBeGreaterThan(0);
    }
    expect(pegasusGenerationFeature.billing.identityPriceMicros).toBeGreaterThan(0);
    expect(FEATURES.find((f) => f.id === "image-upscaling")?.inputs.files[0]?.maxPixels).toBe(
      MAX_UPSCALE_PIXELS,
    );
  });

  it("shows identity inpainting only outside production", () => {
    expect(FEATURES.filter((f) => f.productionHidden).map((f) => f.id)).toEqual(["identity-inpainting"]);
  });
});

describe("feature body schemas", () => {
  it("parse multipart strings, including false booleans", () => {
    expect(textRemovalFeature.bodySchema.parse({ fast_mode: "false" })).toEqual({ fast_mode: false });
    expect(textRemovalFeature.bodySchema.parse({ fast_mode: "true" })).toEqual({ fast_mode: true });
    expect(textRemovalFeature.bodySchema.parse({})).toEqual({ fast_mode: false });
    expect(textRemovalFeature.bodySchema.safeParse({ fast_mode: "maybe" }).success).toBe(false);
  });

  it("applies defaults to empty values", () => {
    expect(
      pegasusGenerationFeature.bodySchema.parse({ prompt: " a cat ", width: "", identity_id: "" }),
    ).toEqual({
      prompt: "a cat",
      width: 1024,
      height: 1024,
      identity_id: undefined,
      artistic: false,
    });
    expect(transcriptionFeature.bodySchema.parse({})).toEqual({ language: "en" });
    expect(transcriptionFeature.bodySchema.safeParse({ language: "xx" }).success).toBe(false);
  });

  it("refuses an extension of zero pixels and out-of-range sides", () => {
    expect(imageExtensionFeature.bodySchema.safeParse({}).success).toBe(false);
    expect(imageExtensionFeature.bodySchema.parse({ top: "64" })).toEqual({
      top: 64,
      bottom: 0,
      left: 0,
      right: 0,
    });
    expect(imageExtensionFeature.bodySchema.safeParse({ top: "5000" }).success).toBe(false);
    expect(imageExtensionFeature.bodySchema.safeParse({ top: "1.5" }).success).toBe(false);
  });

  it("bills transcription per started minute", () => {
    expect(billableUnits(transcriptionFeature, 0)).toBe(1);
    expect(billableUnits(transcriptionFeature, 60)).toBe(1);
    expect(billableUnits(transcriptionFeature, 61)).toBe(2);
    expect(billableUnits(textRemovalFeature, 61)).toBe(1);
  });
});

describe("languages", () => {
  it("offers 100 distinct languages including the spec's examples", () => {
    expect(LANGUAGES).toHaveLength(100);
    const codes = LANGUAGES.map((l) => l.code);
    expect(new Set(codes).size).toBe(100);
    for (const code of ["en", "zh", "de", "yue"]) {
      expect(codes).toContain(code);
    }
  });
});

describe("image pixel limits", () => {
  it("gives every image input with a pixel limit a refusal that names that limit", () => {
    for (const feature of FEATURES) {
      for (const input of feature.inputs.files as readonly FileInput[]) {
        if (input.maxPixels === undefined) continue;
        const megapixels = input.maxPixels / 1_048_576;
        expect(input.pixelLimitMessage?.title, `${feature.id}/${input.name}`).toBe(
          "Image Size Limit Exceeded",
        );
        expect(input.pixelLimitMessage?.message, `${feature.id}/${input.name}`).toContain(
          `exceeds the ${megapixels} Megapixel limit.`,
        );
      }
    }
  });
});

/** CIELAB distance of two "#rrggbb" colours: about 2 is barely visible, above 20 clearly different. */
function colorDistance(a: string, b: string): number {
  const lab = (hex: string) => {
    const [r, g, b] = [1, 3, 5].map((start) => {
      const c = Number.parseInt(hex.slice(start, start + 2), 16) / 255;
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    const f = (t: number) => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);
    const x = f((0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047);
    const y = f(0.2126 * r + 0.7152 * g + 0.0722 * b);
    const z = f((0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883);
    return [116 * y - 16, 500 * (x - y), 200 * (y - z)];
  };
  const [l1 = 0, a1 = 0, b1 = 0] = lab(a);
  const [l2 = 0, a2 = 0, b2 = 0] = lab(b);
  return Math.hypot(l1 - l2, a1 - a2, b1 - b2);
}

describe("usage colours", () => {
  it("gives every feature and call type of the usage page its own, clearly different colour", () => {
    const colors = ENDPOINT_DESCRIPTORS.map((descriptor) =>
      usageColor(descriptor.endpoint, descriptor.callType),
    );
    expect(colors).toHaveLength(14);
    for (const color of colors) expect(color).toMatch(/^#[0-9a-f]{6}$/);
    expect(new Set(colors).size).toBe(colors.length);
    for (const [index, color] of colors.entries()) {
      for (const other of colors.slice(index + 1)) {
        expect(colorDistance(color as string, other as string), `${color} vs ${other}`).toBeGreaterThan(20);
      }
    }
  });

  it("colours a call type by its feature unless it has its own, and knows nothing of other endpoints", () => {
    expect(usageColor("/v1/images/generation", "GENERATION")).toBe(FEATURES[0].color);
    expect(usageColor("/v1/images/pegasus-generation", "pegasus-generation")).toBe(
      pegasusGenerationFeature.color,
    );
    expect(usageColor("/v1/images/pegasus-generation", "pegasus-generation-identity")).not.toBe(
      pegasusGenerationFeature.color,
    );
    expect(usageColor("/v1/unknown", "x")).toBeUndefined();
  });
});

describe("billing units", () => {
  it("names what a unit is for each feature: image, call or minute", () => {
    expect(formatBillingUnits(1, "image")).toBe("1 image");
    expect(formatBillingUnits(3, "image")).toBe("3 images");
    expect(formatBillingUnits(1, "call")).toBe("1 call");
    expect(formatBillingUnits(1234, "call")).toBe("1,234 calls");
    expect(formatBillingUnits(5, "audio-minute")).toBe("5 minutes");
    expect(formatBillingUnits(1, "audio-minute")).toBe("1 minute");
  });
});

/**
 * A feature's body descriptors (what the playground's snippets and the API reference list) are read
 * from its `bodySchema` (what the server accepts). These tests check that reading: the descriptor of
 * each kind of field, and that every claim a descriptor makes holds when the schema parses multipart
 * strings.
 */
describe("body field descriptors are read from the body schema", () => {
  it("reads type, bounds, default, step and debugging-only from each kind of field", () => {
    expect(reimagineFeature.inputs.body).toEqual([
      {
        name: "denoise",
        type: "number",
        required: false,
        min: REIMAGINE_DENOISE_MIN,
        max: REIMAGINE_DENOISE_MAX,
        step: REIMAGINE_DENOISE_STEP,
        default: REIMAGINE_DENOISE_DEFAULT,
        nonProductionOnly: false,
        description: "How far the result may move away from the original (higher changes more).",
      },
    ]);
    expect(imageGenerationFeature.inputs.body.map((field) => [field.name, field.required])).toEqual([
      ["prompt", true],
      ["negative_prompt", false],
      ["width", false],
      ["height", false],
    ]);
    expect(imageGenerationFeature.inputs.body[2]).toMatchObject({
      type: "number",
      integer: true,
      min: GENERATION_MIN_SIDE,
      max: GENERATION_MAX_SIDE,
      default: DEFAULT_RESOLUTION.width,
    });
    expect(imageGenerationFeature.inputs.body[0]).toMatchObject({
      type: "string",
      maxLength: PROMPT_MAX_LENGTH,
    });
    expect(identityInpaintingFeature.inputs.body[0]).toEqual({
      name: "identity_id",
      type: "string",
      required: true,
      maxLength: NAME_MAX_LENGTH,
      nonProductionOnly: false,
      description: "The AI Clone to paint in (its identity_id).",
    });
    expect(textRemovalFeature.inputs.body).toEqual([
      {
        name: "fast_mode",
        type: "boolean",
        required: false,
        default: false,
        nonProductionOnly: true,
        description: "Trade quality for speed.",
      },
    ]);
    expect(transcriptionFeature.inputs.body[0]).toMatchObject({
      type: "enum",
      required: false,
      default: DEFAULT_LANGUAGE,
      values: LANGUAGES.map((language) => language.code),
    });
    expect(objectRemovalFeature.inputs.body).toEqual([]);
  });

  it("reads through a multipart preprocess wrapper and refuses a field it cannot describe", () => {
    const blankIsMissing = (value: unknown) => (value === "" ? undefined : value);
    const wrapped = z.object({
      count: z.preprocess(
        blankIsMissing,
        z.coerce.number().int().min(1).max(9).default(3).meta({ description: "How many." }),
      ),
    });
    expect(bodyFieldsOf(wrapped)).toEqual([
      {
        name: "count",
        type: "number",
        required: false,
        integer: true,
        min: 1,
        max: 9,
        default: 3,
        nonProductionOnly: false,
        description: "How many.",
      },
    ]);
    expect(() =>
      bodyFieldsOf(z.object({ tags: z.array(z.string()).meta({ description: "Tags." }) })),
    ).toThrow('Body field "tags" is not a string, number, boolean or enum.');
    expect(() => bodyFieldsOf(z.object({ name: z.string() }))).toThrow(
      'Body field "name" has no description.',
    );
  });

  const shapeOf = (schema: unknown) => (schema as { shape: Record<string, ZodType> }).shape;
  const accepts = (schema: ZodType, value: unknown) => schema.safeParse(value).success;

  for (const feature of FEATURES) {
    describe(feature.id, () => {
      const shape = shapeOf(feature.bodySchema);

      it("describes every field of the schema, in its order", () => {
        expect(feature.inputs.body.map((field) => field.name)).toEqual(Object.keys(shape));
      });

      for (const field of feature.inputs.body as readonly BodyField[]) {
        it(`${field.name}: the schema parses multipart strings as described`, () => {
          const schema = shape[field.name]!;
          expect(accepts(schema, undefined), "may be left out").toBe(!field.required);
          if (field.default !== undefined) {
            expect(schema.parse(undefined)).toEqual(field.default);
            expect(schema.parse("")).toEqual(field.default);
          }
          if (field.type === "number") {
            const step = field.integer ? 1 : 0.001;
            if (field.min !== undefined) {
              expect(accepts(schema, String(field.min))).toBe(true);
              expect(accepts(schema, String(field.min - step))).toBe(false);
            }
            if (field.max !== undefined) {
              expect(accepts(schema, String(field.max))).toBe(true);
              expect(accepts(schema, String(field.max + step))).toBe(false);
            }
            if (field.integer && field.min !== undefined) {
              expect(accepts(schema, String(field.min + 0.5))).toBe(false);
            }
          }
          if (field.type === "string" && field.maxLength !== undefined) {
            expect(accepts(schema, "x".repeat(field.maxLength))).toBe(true);
            expect(accepts(schema, "x".repeat(field.maxLength + 1))).toBe(false);
          }
          if (field.type === "boolean") {
            expect(schema.parse("true")).toBe(true);
            expect(schema.parse("false")).toBe(false);
          }
          if (field.type === "enum") {
            for (const value of field.values ?? []) expect(accepts(schema, value)).toBe(true);
            expect(accepts(schema, "not-a-listed-value")).toBe(false);
          }
        });
      }
    });
  }
});
