import { describe, expect, it } from "vitest";
import {
  backgroundRemovalFeature,
  identityInpaintingFeature,
  imageExtensionFeature,
  imageGenerationFeature,
  pegasusGenerationFeature,
  transcriptionFeature,
} from "./catalog";
import { IDEMPOTENCY_KEY_HEADER_NAME, IDENTITY_REQUEST_HEADER, PROJECT_HEADER } from "./limits";
import {
  API_KEY_PLACEHOLDER,
  API_KEY_VARIABLE,
  curlSnippet,
  generateSnippets,
  IDEMPOTENCY_KEY_EXAMPLE,
} from "./snippets";

describe("generateSnippets", () => {
  const snippets = generateSnippets(backgroundRemovalFeature, {
    origin: "https://console.example.com/",
    fileNames: { image: ["photo.png"] },
  });

  it("offers cURL, Python, JavaScript and TypeScript, and the asynchronous form in three of them", () => {
    expect(snippets.map((snippet) => snippet.label)).toEqual([
      "cURL",
      "Python",
      "JavaScript",
      "TypeScript",
      "cURL (async)",
      "Python (async)",
      "JavaScript (async)",
    ]);
  });

  it("submits the asynchronous form with Prefer: respond-async, follows the call and fetches its result", () => {
    const [curl, python, javascript] = snippets.slice(4).map((snippet) => snippet.code);
    expect(curl).toContain("-H 'Prefer: respond-async'");
    expect(curl).toContain("curl 'https://console.example.com/v1/requests/REQUEST_ID'");
    expect(python).toContain('"Prefer": "respond-async"');
    expect(python).toContain('while call["status"] in ("queued", "running"):');
    expect(python).toContain('requests.get(urljoin(url, call["response_data"]["file"]), headers=headers)');
    expect(javascript).toContain('Prefer: "respond-async"');
    expect(javascript).toContain('while (call.status === "queued" || call.status === "running")');
    expect(javascript).toContain("await fetch(new URL(call.response_data.file, url)");
  });

  it("builds a multipart cURL call to the real endpoint with the API key header", () => {
    const curl = snippets[0]?.code ?? "";
    expect(curl).toContain("curl -X POST 'https://console.example.com/v1/images/background-removal'");
    expect(curl).toContain(`-H 'Authorization: Bearer ${API_KEY_PLACEHOLDER}'`);
    expect(curl).toContain("-F 'image=@photo.png'");
    expect(curl).not.toContain(PROJECT_HEADER);
  });

  it("names the same endpoint, key and file in every language", () => {
    for (const snippet of snippets) {
      expect(snippet.code).toContain("https://console.example.com/v1/images/background-removal");
      expect(snippet.code).toContain(`Bearer ${API_KEY_PLACEHOLDER}`);
      expect(snippet.code).toContain("photo.png");
    }
    expect(snippets[1]?.code).toContain('("image", open("photo.png", "rb"))');
    expect(snippets[2]?.code).toContain(
      'form.append("image", new Blob([await readFile("photo.png")]), "photo.png");',
    );
  });

  it("adds the current body fields from the catalog, in catalog order, and defaults file names", () => {
    const [curl] = generateSnippets(imageExtensionFeature, {
      origin: "http://localhost:3000",
      body: { left: 64, top: 128, bottom: 0, right: undefined },
    });
    const code = curl?.code ?? "";
    expect(code).toContain("-F 'image=@image.png'");
    expect(code.indexOf("top=128")).toBeLessThan(code.indexOf("bottom=0"));
    expect(code.indexOf("bottom=0")).toBeLessThan(code.indexOf("left=64"));
    expect(code).not.toContain("right=");
  });

  it("quotes shell-special characters", () => {
    const [curl] = generateSnippets(backgroundRemovalFeature, {
      origin: "http://localhost",
      fileNames: { image: ["it's.png"] },
    });
    expect(curl?.code).toContain(`-F 'image=@it'\\''s.png'`);
  });

  it("sends the AI Clone's request header next to the key in every language", () => {
    const snippets = generateSnippets(pegasusGenerationFeature, {
      origin: "http://localhost:3000",
      body: { prompt: "a portrait", identity_id: "identity-7", artistic: true },
      headers: { [IDENTITY_REQUEST_HEADER]: "request-7" },
    });
    const [curl, python, javascript] = snippets.map((snippet) => snippet.code);
    expect(curl).toContain(`-H '${IDENTITY_REQUEST_HEADER}: request-7'`);
    expect(curl).toContain("-F 'identity_id=identity-7'");
    expect(python).toContain(`"${IDENTITY_REQUEST_HEADER}": "request-7",`);
    expect(javascript).toContain(`"${IDENTITY_REQUEST_HEADER}": "request-7"`);
    expect(javascript).toContain(`const authorization = "Bearer ${API_KEY_PLACEHOLDER}";`);
  });

  it("reads a key given as $PRISM_API_KEY from the environment in every language", () => {
    const [curl, python, javascript, typescript] = generateSnippets(backgroundRemovalFeature, {
      origin: "https://console.example.com",
      apiKey: API_KEY_VARIABLE,
      shellVariables: true,
    }).map((snippet) => snippet.code);
    expect(curl).toContain('-H "Authorization: Bearer $PRISM_API_KEY"');
    expect(python).toContain('"Authorization": "Bearer " + os.environ["PRISM_API_KEY"],');
    expect(python).toMatch(/^import os$/m);
    for (const code of [javascript, typescript]) {
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the generated code's own template literal
      expect(code).toContain("const authorization = `Bearer ${process.env.PRISM_API_KEY}`;");
    }
  });

  it("prints the error code and request id, and downloads the result with the key", () => {
    const [, python, javascript, typescript] = snippets.map((snippet) => snippet.code);
    expect(python).toContain("(requestId {error['requestId']})");
    expect(python).toContain(
      'download = requests.get(urljoin(url, result["request"]["response_data"]["file"]), headers=headers)',
    );
    for (const code of [javascript, typescript]) {
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the generated code's own template literal
      expect(code).toContain("(requestId ${error.requestId})");
      expect(code).toContain(
        "await fetch(new URL(result.request.response_data.file, url), { headers: { Authorization: authorization } })",
      );
      // No top-level await: the code runs as CommonJS and as a module alike.
      const topLevel = code!.split("\n").filter((line) => !line.startsWith(" ") && line.includes("await"));
      expect(topLevel).toEqual([]);
    }
  });

  it("sends text fields as multipart parts in Python, so a call without a file is multipart too", () => {
    const python = generateSnippets(imageGenerationFeature, {
      origin: "https://console.example.com",
      body: { prompt: "a lighthouse" },
    })[1]!.code;
    expect(python).toContain('("prompt", (None, "a lighthouse")),');
    expect(python).toContain("requests.post(url, headers=headers, files=files)");
  });

  it("gives a file of the wrong type for its field a name of the right type", () => {
    const curl = generateSnippets(transcriptionFeature, {
      origin: "https://console.example.com",
      fileNames: { audio: ["audio.png"] },
    })[0]!.code;
    expect(curl).toContain("-F 'audio=@audio.mp3'");
    expect(curl).not.toContain("audio.png");
  });

  it("offers the Idempotency-Key header as an optional, commented-out line in Python, JavaScript and TypeScript", () => {
    const [curl, python, javascript, typescript] = generateSnippets(backgroundRemovalFeature, {
      origin: "http://localhost:3000",
    }).map((snippet) => snippet.code);
    expect(python).toContain(
      `    # "${IDEMPOTENCY_KEY_HEADER_NAME}": "${IDEMPOTENCY_KEY_EXAMPLE}",  # optional:`,
    );
    for (const code of [javascript, typescript]) {
      expect(code).toContain(
        `    // "${IDEMPOTENCY_KEY_HEADER_NAME}": "${IDEMPOTENCY_KEY_EXAMPLE}", // optional:`,
      );
    }
    // The line is a comment: the headers sent are only the key's until the user opts in.
    expect(python).toContain(`    "Authorization": "Bearer ${API_KEY_PLACEHOLDER}",\n    #`);
    expect(curl).not.toContain(IDEMPOTENCY_KEY_HEADER_NAME);
  });
});

describe("curlSnippet", () => {
  it("is the cURL tab of the console's snippets", () => {
    const inputs = { origin: "https://console.example.com", fileNames: { image: ["photo.png"] } };
    expect(curlSnippet(backgroundRemovalFeature, inputs)).toBe(
      generateSnippets(backgroundRemovalFeature, inputs)[0]?.code,
    );
  });

  it("keeps $VARIABLES expandable for the reference's examples, and only there", () => {
    const inputs = {
      origin: "$ORIGIN",
      apiKey: "$PRISM_API_KEY",
      body: { identity_id: "$IDENTITY_ID", prompt: 'it\'s "quoted"' },
      fileNames: { image: ["photo.png"], mask: ["mask.png"] },
      headers: { [IDENTITY_REQUEST_HEADER]: "$IDENTITY_REQUEST_ID" },
    };
    expect(curlSnippet(identityInpaintingFeature, { ...inputs, shellVariables: true })).toBe(
      [
        'curl -X POST "$ORIGIN/v1/images/identity-inpainting"',
        '  -H "Authorization: Bearer $PRISM_API_KEY"',
        `  -H "${IDENTITY_REQUEST_HEADER}: $IDENTITY_REQUEST_ID"`,
        "  -F 'image=@photo.png'",
        "  -F 'mask=@mask.png'",
        '  -F "identity_id=$IDENTITY_ID"',
        `  -F 'prompt=it'\\''s "quoted"'`,
      ].join(" \\\n"),
    );
    // What a user typed is sent as typed: a `$` in the console's values is not the shell's.
    const literal = curlSnippet(identityInpaintingFeature, inputs);
    expect(literal).toContain("-F 'identity_id=$IDENTITY_ID'");
    expect(literal).toContain("curl -X POST '$ORIGIN/v1/images/identity-inpainting'");
  });
});
