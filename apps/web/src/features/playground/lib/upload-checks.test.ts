import {
  backgroundRemovalFeature,
  faceSwappingFeature,
  generativeFillFeature,
  IMAGE_BYTES_EXCEEDED,
  IMAGE_PIXELS_EXCEEDED,
  IMAGE_UNREADABLE,
  identityInpaintingFeature,
  imageExtensionFeature,
  objectRemovalFeature,
  pegasusTrainingFeature,
  reimagineFeature,
  textRemovalFeature,
  UPSCALE_PIXELS_EXCEEDED,
  upscalingFeature,
} from "@prism/contract";
import { describe, expect, it } from "vitest";
import { checkImageUpload } from "./upload-checks";

const imageInput = backgroundRemovalFeature.inputs.files[0];
const upscaleInput = upscalingFeature.inputs.files[0];

function fileOf(name: string, type: string, bytes = 10): File {
  const file = new File([new Uint8Array(Math.min(bytes, 16))], name, { type });
  if (bytes > 16) Object.defineProperty(file, "size", { value: bytes });
  return file;
}

const sized = (width: number, height: number) => async () => ({ width, height });
const unreadable = async () => {
  throw new Error("broken");
};

describe("checkImageUpload", () => {
  it("accepts a PNG within the limits", async () => {
    expect(await checkImageUpload(fileOf("a.png", "image/png"), imageInput, sized(4096, 4096))).toBeNull();
  });

  it("refuses more than 16 megapixels with Image Size Limit Exceeded", async () => {
    const problem = await checkImageUpload(fileOf("a.png", "image/png"), imageInput, sized(4097, 4096));
    expect(problem).toEqual(IMAGE_PIXELS_EXCEEDED);
    expect(problem?.title).toBe("Image Size Limit Exceeded");
  });

  it("refuses more than 30 MB before decoding", async () => {
    const problem = await checkImageUpload(fileOf("a.jpg", "image/jpeg", 31_457_281), imageInput, unreadable);
    expect(problem).toEqual(IMAGE_BYTES_EXCEEDED);
    expect(
      await checkImageUpload(fileOf("a.jpg", "image/jpeg", 31_457_280), imageInput, sized(10, 10)),
    ).toBeNull();
  });

  it("applies the 4 megapixel limit of upscaling", async () => {
    expect(
      await checkImageUpload(fileOf("a.webp", "image/webp"), upscaleInput, sized(2048, 2048)),
    ).toBeNull();
    expect(await checkImageUpload(fileOf("a.webp", "image/webp"), upscaleInput, sized(2049, 2048))).toEqual(
      UPSCALE_PIXELS_EXCEEDED,
    );
  });

  it("reports an image the browser cannot read as unreadable", async () => {
    expect(await checkImageUpload(fileOf("a.png", "image/png"), imageInput, unreadable)).toEqual(
      IMAGE_UNREADABLE,
    );
  });

  it("refuses a file of another type naming the accepted image types", async () => {
    for (const other of [fileOf("a.gif", "image/gif"), fileOf("speech.wav", "audio/wav")]) {
      expect(await checkImageUpload(other, imageInput, sized(10, 10))).toEqual({
        title: "File Type Not Accepted",
        message: "Only .jpg, .jpeg, .png and .webp images are accepted.",
      });
    }
  });

  describe("the 16 megapixel wording of each screen", () => {
    const huge = sized(4097, 4096);
    const refusal = async (input: (typeof objectRemovalFeature.inputs.files)[number]) =>
      (await checkImageUpload(fileOf("a.png", "image/png"), input, huge))?.message;

    it("asks to use a smaller image on the single-image tools", async () => {
      for (const feature of [
        backgroundRemovalFeature,
        textRemovalFeature,
        imageExtensionFeature,
        reimagineFeature,
      ]) {
        expect(await refusal(feature.inputs.files[0])).toBe(
          "The uploaded image exceeds the 16 Megapixel limit. Please use an image with dimensions under 16 Megapixels.",
        );
      }
    });

    it("asks to upload a smaller image on the mask and face screens", async () => {
      for (const input of [
        objectRemovalFeature.inputs.files[0],
        generativeFillFeature.inputs.files[0],
        identityInpaintingFeature.inputs.files[0],
        faceSwappingFeature.inputs.files[0],
        faceSwappingFeature.inputs.files[1],
      ]) {
        expect(await refusal(input)).toBe(
          "The uploaded image exceeds the 16 Megapixel limit. Please upload an image with dimensions below 16 Megapixels.",
        );
      }
    });

    it("states the limit alone for AI Clone training photos", async () => {
      expect(await refusal(pegasusTrainingFeature.inputs.files[0])).toBe(
        "The uploaded image exceeds the 16 Megapixel limit.",
      );
    });
  });
});
