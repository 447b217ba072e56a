// The Prism API reference: renders /v1/openapi.json into the page served at /docs. Plain DOM code,
// no framework and no network beyond our own origin (the CSP allows only 'self').

const content = document.querySelector(".content");
const navGroups = document.querySelector(".nav-groups");
const filter = document.querySelector(".filter");

/** Creates an element; `attributes` may hold `class`, `text`, data-*, aria-* and plain attributes. */
function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return node;
}

// ---------------------------------------------------------------------------------------------------
// A small Markdown subset: headings, paragraphs, lists, tables, `code`, **bold** and [links](url).
// ---------------------------------------------------------------------------------------------------

function inline(text) {
  const nodes = [];
  const pattern = /`([^`]+)`|\*\*([^*]+)\*\*|\[([^\]]+)\]\(([^)\s]+)\)/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > last) nodes.push(text.slice(last, match.index));
    if (match[1] !== undefined) nodes.push(el("code", { text: match[1] }));
    else if (match[2] !== undefined) nodes.push(el("strong", { text: match[2] }));
    else {
      const safe = /^(https?:\/\/|\/|#)/.test(match[4]) ? match[4] : "#";
      nodes.push(el("a", { href: safe, text: match[3] }));
    }
    last = match.index + match[0].length;
  }
  if (last < text.length) nodes.push(text.slice(last));
  return nodes;
}

function tableCells(line) {
  return line
    .trim()
    .replace(/^\||\|$/g, "")
    .split("|")
    .map((cell) => cell.trim());
}

function markdown(source) {
  const fragment = document.createDocumentFragment();
  const lines = String(source ?? "").split("\n");
  let index = 0;
  while (index < lines.length) {
    const line = lines[index];
    if (line.trim() === "") {
      index += 1;
    } else if (/^#{1,6} /.test(line)) {
      const level = Math.min(6, line.indexOf(" ") + 1);
      fragment.append(el(`h${level}`, {}, inline(line.replace(/^#+ /, ""))));
      index += 1;
    } else if (line.trim().startsWith("|")) {
      const rows = [];
      while (index < lines.length && lines[index].trim().startsWith("|")) {
        rows.push(lines[index]);
        index += 1;
      }
      const [head, , ...body] = rows;
      fragment.append(
        el(
          "div",
          { class: "table-wrap" },
          el(
            "table",
            {},
            el(
              "thead",
              {},
              el(
                "tr",
                {},
                tableCells(head).map((cell) => el("th", {}, inline(cell))),
              ),
            ),
            el(
              "tbody",
              {},
              body.map((row) =>
                el(
                  "tr",
                  {},
                  tableCells(row).map((cell) => el("td", {}, inline(cell))),
                ),
              ),
            ),
          ),
        ),
      );
    } else if (/^[-*] /.test(line)) {
      const items = [];
      while (index < lines.length && /^[-*] /.test(lines[index])) {
        items.push(el("li", {}, inline(lines[index].slice(2))));
        index += 1;
      }
      fragment.append(el("ul", {}, items));
    } else {
      const paragraph = [];
      while (
        index < lines.length &&
        lines[index].trim() !== "" &&
        !/^(#{1,6} |[-*] |\|)/.test(lines[index].trim())
      ) {
        paragraph.push(lines[index].trim());
        index += 1;
      }
      fragment.append(el("p", {}, inline(paragraph.join(" "))));
    }
  }
  return fragment;
}

// ---------------------------------------------------------------------------------------------------
// Helpers over the document.
// ---------------------------------------------------------------------------------------------------

function resolveRef(spec, value) {
  if (!value || typeof value.$ref !== "string") return value;
  const path = value.$ref.replace(/^#\//, "").split("/");
  return path.reduce((node, key) => node?.[key], spec);
}

function copyButton(getText) {
  const button = el("button", { class: "copy", type: "button", text: "Copy" });
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(getText());
      button.textContent = "Copied!";
    } catch {
      button.textContent = "Select and copy";
    }
    setTimeout(() => {
      button.textContent = "Copy";
    }, 2000);
  });
  return button;
}

function codeBlock(text, language) {
  return el(
    "div",
    { class: "code-block" },
    el(
      "div",
      { class: "code-head" },
      el("span", { text: language }),
      copyButton(() => text),
    ),
    el("pre", {}, el("code", { text })),
  );
}

function typeOf(schema) {
  if (schema.type === "array") {
    const item = schema.items ?? {};
    return `${item.format === "binary" ? "file" : item.type}[]`;
  }
  if (schema.format === "binary") return "file";
  return schema.enum ? "enum" : schema.type;
}

function constraints(schema) {
  const parts = [];
  if (schema.type === "array") {
    parts.push(`${schema.minItems} to ${schema.maxItems} files`);
  }
  const accepted = schema["x-accepted-types"];
  if (accepted) parts.push(accepted.join(", "));
  if (schema.minimum !== undefined && schema.maximum !== undefined) {
    parts.push(`${schema.minimum} to ${schema.maximum}`);
  } else if (schema.minimum !== undefined) {
    parts.push(`≥ ${schema.minimum}`);
  } else if (schema.maximum !== undefined) {
    parts.push(`≤ ${schema.maximum}`);
  }
  if (schema["x-step"] !== undefined) parts.push(`step ${schema["x-step"]}`);
  if (schema.maxLength !== undefined) parts.push(`at most ${schema.maxLength} characters`);
  const nodes = parts.map((part) => el("span", { class: "chip", text: part }));
  if (schema.default !== undefined) {
    nodes.push(
      el(
        "span",
        { class: "chip chip-default" },
        "default ",
        el("code", { text: JSON.stringify(schema.default) }),
      ),
    );
  }
  if (schema.enum) {
    const values = schema.enum.map((value) => el("code", { text: value }));
    if (values.length > 12) {
      nodes.push(
        el(
          "details",
          { class: "enum" },
          el("summary", { text: `${values.length} values` }),
          el("div", { class: "enum-values" }, values),
        ),
      );
    } else {
      nodes.push(el("div", { class: "enum-values" }, values));
    }
  }
  return nodes;
}

function fieldsTable(rows) {
  return el(
    "div",
    { class: "table-wrap" },
    el(
      "table",
      { class: "fields" },
      el(
        "thead",
        {},
        el(
          "tr",
          {},
          ["Name", "Type", "Constraints", "Description"].map((title) => el("th", { text: title })),
        ),
      ),
      el(
        "tbody",
        {},
        rows.map((row) =>
          el(
            "tr",
            {},
            el(
              "td",
              { class: "name" },
              el("code", { text: row.name }),
              row.required
                ? el("span", { class: "required", text: "required" })
                : el("span", { class: "optional", text: "optional" }),
            ),
            el("td", { class: "type", text: row.type }),
            el("td", { class: "constraints" }, row.constraints),
            el("td", {}, markdown(row.description ?? "")),
          ),
        ),
      ),
    ),
  );
}

// ---------------------------------------------------------------------------------------------------
// Rendering.
// ---------------------------------------------------------------------------------------------------

function operations(spec) {
  const list = [];
  for (const [path, item] of Object.entries(spec.paths ?? {})) {
    for (const [method, operation] of Object.entries(item)) {
      list.push({ path, method, operation, id: operation.operationId ?? `${method}-${path}` });
    }
  }
  return list;
}

function renderIntro(spec) {
  const origin = window.location.origin;
  const setup = `export ORIGIN="${origin}"\nexport PRISM_API_KEY="psk_..."   # Project → API Keys in the console`;
  return el(
    "section",
    { class: "intro", id: "introduction" },
    el("p", { class: "eyebrow", text: `Version ${spec.info.version} · OpenAPI ${spec.openapi}` }),
    el("h1", { text: spec.info.title }),
    markdown(spec.info.description),
    el("h3", { text: "Quick start" }),
    codeBlock(setup, "shell"),
    el(
      "p",
      { class: "muted" },
      "The machine-readable description is at ",
      el("a", { href: "/v1/openapi.json", text: "/v1/openapi.json" }),
      "; it imports into Postman, Insomnia and OpenAPI code generators.",
    ),
  );
}

/** The badge of a feature this deployment cannot run, linked to the model-server guide when it needs one. */
function availabilityBadge(operation, guideId) {
  const availability = operation["x-prism-availability"];
  if (!availability || availability.available) return null;
  const text = availability.badge ?? "Unavailable";
  return availability.needsModelServer && guideId
    ? el("a", { class: "badge badge-unavailable", href: `#${guideId}`, title: availability.reason, text })
    : el("span", { class: "badge badge-unavailable", title: availability.reason, text });
}

function guideIdOf(spec) {
  return (spec["x-prism-guides"] ?? [])[0]?.id;
}

function renderGuide(guide) {
  return el(
    "section",
    { class: "guide", id: guide.id },
    el("p", { class: "eyebrow", text: "Guide" }),
    el("h2", { text: guide.title }),
    el("div", { class: "description" }, markdown(guide.markdown)),
  );
}

function renderParameters(spec, operation) {
  const parameters = (operation.parameters ?? []).map((parameter) => resolveRef(spec, parameter));
  const groups = [
    ["path", "Path parameters"],
    ["header", "Headers"],
    ["query", "Query parameters"],
  ];
  return groups
    .map(([place, title]) => [title, parameters.filter((parameter) => (parameter.in ?? "header") === place)])
    .filter(([, list]) => list.length > 0)
    .flatMap(([title, list]) => [
      el("h3", { text: title }),
      fieldsTable(
        list.map((parameter) => ({
          name: parameter.name,
          required: parameter.required,
          type: parameter.schema?.type ?? "string",
          constraints: [],
          description: parameter.description,
        })),
      ),
    ]);
}

function renderOperation(spec, { path, method, operation, id }) {
  const feature = operation["x-prism-feature"] ?? {};
  const section = el("section", { class: "operation", id });
  const badge = availabilityBadge(operation, guideIdOf(spec));
  section.append(
    el("p", { class: "eyebrow", text: (operation.tags ?? []).join(" · ") }),
    el("h2", {}, operation.summary ?? path, badge ? " " : null, badge),
    el(
      "div",
      { class: "endpoint" },
      el("span", { class: `method method-${method}`, text: method.toUpperCase() }),
      el("code", { text: path }),
      feature.billing ? el("span", { class: "price", text: feature.billing.text }) : null,
    ),
    el("div", { class: "description" }, markdown(operation.description)),
  );

  const availability = operation["x-prism-availability"];
  if (availability && !availability.available && availability.reason) {
    section.append(el("p", { class: "notice" }, availability.reason));
  }

  section.append(...renderParameters(spec, operation));

  // Feature calls take multipart/form-data; the few console calls API keys may make take JSON.
  const content = operation.requestBody?.content;
  if (content) {
    const mediaType = Object.keys(content)[0] ?? "multipart/form-data";
    const schema = content[mediaType]?.schema ?? {};
    const required = new Set(schema.required ?? []);
    const fields = Object.entries(schema.properties ?? {});
    section.append(el("h3", {}, "Body ", el("span", { class: "muted small", text: mediaType })));
    if (fields.length === 0) {
      section.append(el("p", { class: "muted", text: "No fields." }));
    } else {
      section.append(
        fieldsTable(
          fields.map(([name, property]) => ({
            name,
            required: required.has(name),
            type: typeOf(property),
            constraints: constraints(property),
            description: property.description,
          })),
        ),
      );
    }
  }

  for (const sample of operation["x-codeSamples"] ?? []) {
    section.append(el("h3", { text: "Example" }), codeBlock(sample.source, sample.label ?? sample.lang));
  }

  const responses = Object.entries(operation.responses ?? {});
  const success = responses.filter(([status]) => status.startsWith("2"));
  for (const [status, raw] of success) {
    const response = resolveRef(spec, raw);
    const example = response.content?.["application/json"]?.example;
    const types = Object.keys(response.content ?? {}).filter((type) => type !== "application/json");
    const parts = [
      el("h3", {}, "Response ", el("span", { class: "status status-ok", text: status })),
      el("div", { class: "description" }, markdown(response.description)),
      types.length > 0
        ? el(
            "p",
            { class: "content-types" },
            "Content types: ",
            types.map((type) => el("span", { class: "chip", text: type })),
          )
        : null,
      example === undefined ? null : codeBlock(JSON.stringify(example, null, 2), "json"),
    ];
    // append() would print a null as the text "null".
    section.append(...parts.filter((part) => part !== null));
  }

  const errors = responses.filter(([status]) => !status.startsWith("2"));
  if (errors.length > 0) {
    section.append(
      el("h3", { text: "Errors" }),
      el(
        "p",
        { class: "muted" },
        "Every error answers ",
        el("code", { text: '{ "error": "<code>", "message": "<text>" }' }),
        ".",
      ),
      el(
        "div",
        { class: "table-wrap" },
        el(
          "table",
          { class: "errors" },
          el("thead", {}, el("tr", {}, el("th", { text: "Status" }), el("th", { text: "Meaning" }))),
          el(
            "tbody",
            {},
            errors.map(([status, raw]) =>
              el(
                "tr",
                {},
                el("td", {}, el("span", { class: `status status-${status[0]}xx`, text: status })),
                el("td", {}, markdown(resolveRef(spec, raw)?.description ?? "")),
              ),
            ),
          ),
        ),
      ),
    );
  }
  return section;
}

function renderNav(spec, list) {
  const groups = new Map();
  for (const entry of list) {
    const tag = entry.operation.tags?.[0] ?? "Endpoints";
    if (!groups.has(tag)) groups.set(tag, []);
    groups.get(tag).push(entry);
  }
  const order = (spec.tags ?? []).map((tag) => tag.name);
  const names = [...groups.keys()].sort((a, b) => {
    const left = order.indexOf(a) === -1 ? order.length : order.indexOf(a);
    const right = order.indexOf(b) === -1 ? order.length : order.indexOf(b);
    return left - right;
  });
  const guides = spec["x-prism-guides"] ?? [];
  navGroups.replaceChildren(
    el("a", {
      class: "nav-link nav-intro",
      href: "#introduction",
      "data-target": "introduction",
      text: "Introduction",
    }),

    ...names.map((name) =>
      el(
        "div",
        { class: "nav-group" },
        el("p", { class: "nav-title", text: name }),
        groups.get(name).map((entry) =>
          el(
            "a",
            {
              class: "nav-link",
              href: `#${entry.id}`,
              "data-target": entry.id,
              "data-search": `${entry.operation.summary} ${entry.path}`.toLowerCase(),
            },
            el("span", { class: `method method-${entry.method}`, text: entry.method.toUpperCase() }),
            el("span", { text: entry.operation.summary ?? entry.path }),
            entry.operation["x-prism-availability"]?.available === false
              ? el("span", {
                  class: "nav-badge",
                  title: entry.operation["x-prism-availability"].reason,
                  text: entry.operation["x-prism-availability"].needsModelServer
                    ? "needs server"
                    : "unavailable",
                })
              : null,
          ),
        ),
      ),
    ),
    guides.length > 0
      ? el(
          "div",
          { class: "nav-group" },
          el("p", { class: "nav-title", text: "Guides" }),
          guides.map((guide) =>
            el("a", {
              class: "nav-link",
              href: `#${guide.id}`,
              "data-target": guide.id,
              "data-search": guide.title.toLowerCase(),
              text: guide.title,
            }),
          ),
        )
      : null,
  );
}

function watchActiveSection() {
  const links = new Map(
    [...navGroups.querySelectorAll("[data-target]")].map((link) => [link.dataset.target, link]),
  );
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        for (const link of links.values()) link.classList.remove("active");
        links.get(entry.target.id)?.classList.add("active");
      }
    },
    { rootMargin: "0px 0px -70% 0px" },
  );
  for (const section of content.querySelectorAll("section[id]")) observer.observe(section);
}

filter.addEventListener("input", () => {
  const query = filter.value.trim().toLowerCase();
  for (const link of navGroups.querySelectorAll("[data-search]")) {
    link.hidden = query !== "" && !link.dataset.search.includes(query);
  }
  for (const group of navGroups.querySelectorAll(".nav-group")) {
    group.hidden = [...group.querySelectorAll("[data-search]")].every((link) => link.hidden);
  }
});

async function main() {
  try {
    const response = await fetch("/v1/openapi.json", { headers: { accept: "application/json" } });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const spec = await response.json();
    const list = operations(spec);
    document.title = `${spec.info.title} reference`;
    content.replaceChildren(
      renderIntro(spec),
      ...list.map((entry) => renderOperation(spec, entry)),
      ...(spec["x-prism-guides"] ?? []).map(renderGuide),
    );
    renderNav(spec, list);
    watchActiveSection();
    if (window.location.hash) {
      document
        .getElementById(decodeURIComponent(window.location.hash.slice(1)))
        ?.scrollIntoView({ behavior: "instant", block: "start" });
    }
  } catch (error) {
    content.replaceChildren(
      el(
        "p",
        { class: "error" },
        `The API description could not be loaded (${error.message}). Try again later, or read `,
        el("a", { href: "/v1/openapi.json", text: "/v1/openapi.json" }),
        ".",
      ),
    );
  }
}

main();
