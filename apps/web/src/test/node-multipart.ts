import { File as NodeFile } from "node:buffer";
import { vi } from "vitest";

// jsdom's FormData and File reach Node's fetch (which msw intercepts) as an empty part named "blob":
// fetch only serialises its own classes. Node's FormData is not a global under jsdom, so it is taken
// from a Response's parsed body.
const NodeFormData = (await new Response(new URLSearchParams()).formData()).constructor as typeof FormData;

/**
 * For tests that read a multipart request in an msw handler: `FormData` and `File` become Node's own
 * until `vi.unstubAllGlobals()`, so the parts arrive with their names and bytes as a browser sends them.
 */
export function useNodeMultipart(): void {
  vi.stubGlobal("FormData", NodeFormData);
  vi.stubGlobal("File", NodeFile);
}
