#!/usr/bin/env node
// @ts-check
"use strict";

/**
 * The part of the package that n8n stores in users' workflows and that the first release therefore
 * freezes: node type names, versions, resource and operation values, parameter names and the names
 * inside each collection. CHANGELOG.md keeps it between the two `frozen-shape` markers;
 * test/unit/scripts/frozenShape.test.ts fails when the nodes and that list differ.
 *
 *   node scripts/frozen-shape.js          prints the list from the built package (dist/)
 *   node scripts/frozen-shape.js --write  writes it into CHANGELOG.md
 */

const fs = require("node:fs");
const path = require("node:path");

const REPO = path.resolve(__dirname, "..");
const START = "<!-- frozen-shape:start -->";
const END = "<!-- frozen-shape:end -->";

/** `name`, or `name` (`a`, `b`) for a collection, recursively for fixed collections. @param {any} p */
function parameter(p) {
  if (p.type === "collection")
    return `\`${p.name}\` (${p.options.map(parameter).join(", ")})`;
  if (p.type === "fixedCollection") {
    const groups = p.options.map(
      (/** @type {any} */ g) =>
        `\`${g.name}\`: ${g.values.map(parameter).join(", ")}`,
    );
    return `\`${p.name}\` (${groups.join("; ")})`;
  }
  return `\`${p.name}\``;
}

/** Whether `p` is shown when the pickers hold the given values (`/operation` is the root's `operation`). @param {any} p @param {Record<string, string>} values */
function shownFor(p, values) {
  const show = p.displayOptions?.show ?? {};
  return Object.entries(values).every(([name, value]) =>
    [show[name], show[`/${name}`]].every(
      (allowed) => allowed === undefined || allowed.includes(value),
    ),
  );
}

/** One parameter name once, in the order of the first parameter of that name. @param {any[]} properties */
function uniqueByName(properties) {
  /** @type {Map<string, any[]>} */
  const byName = new Map();
  for (const p of properties)
    byName.set(p.name, [...(byName.get(p.name) ?? []), p]);
  return [...byName.values()].map((same) => {
    if (same.length === 1 || same[0].type !== "collection") return same[0];
    const options = uniqueByName(same.flatMap((p) => p.options));
    return { ...same[0], options };
  });
}

/** @param {string} packageName @param {any} description */
function nodeShape(packageName, description) {
  const lines = [
    `- **${description.displayName}** (\`${packageName}.${description.name}\`, version ${description.version})`,
  ];
  const props = description.properties.filter(
    (/** @type {any} */ p) => p.type !== "notice",
  );
  const resource = props.find((/** @type {any} */ p) => p.name === "resource");
  const operations = props.filter(
    (/** @type {any} */ p) => p.name === "operation",
  );
  const pickers = new Set(["resource", "operation"]);
  const rest = props.filter((/** @type {any} */ p) => !pickers.has(p.name));
  if (operations.length === 0) {
    lines.push(`  - ${uniqueByName(rest).map(parameter).join(", ")}`);
    return lines;
  }
  for (const picker of operations) {
    const resourceValue = picker.displayOptions?.show?.resource?.[0];
    const prefix = resource ? `\`${resourceValue}\` → ` : "";
    for (const op of picker.options) {
      /** @type {Record<string, string>} */
      const values = { operation: op.value };
      if (resourceValue) values.resource = resourceValue;
      const shown = uniqueByName(
        rest.filter((/** @type {any} */ p) => shownFor(p, values)),
      );
      lines.push(
        `  - ${prefix}\`${op.value}\` (${op.name}): ${shown.length ? shown.map(parameter).join(", ") : "no parameters"}`,
      );
    }
  }
  return lines;
}

/** @param {any} credential */
function credentialShape(credential) {
  return `- **${credential.displayName}** credential (\`${credential.name}\`): ${credential.properties
    .filter((/** @type {any} */ p) => p.type !== "notice")
    .map(parameter)
    .join(", ")}`;
}

/**
 * The list as CHANGELOG.md holds it between the markers.
 * @param {string} packageName @param {any[]} nodeDescriptions @param {any[]} credentials
 */
function frozenShape(packageName, nodeDescriptions, credentials) {
  return [
    ...credentials.map(credentialShape),
    ...nodeDescriptions.flatMap((d) => nodeShape(packageName, d)),
  ].join("\n");
}

/** The marked block of `changelog`, or undefined. @param {string} changelog */
function markedBlock(changelog) {
  const start = changelog.indexOf(START);
  const end = changelog.indexOf(END);
  if (start < 0 || end < start) return undefined;
  return changelog.slice(start + START.length, end).trim();
}

function fromDist() {
  const pkg = JSON.parse(
    fs.readFileSync(path.join(REPO, "package.json"), "utf8"),
  );
  const instances = (/** @type {string[]} */ files) =>
    files.flatMap((file) =>
      Object.values(require(path.join(REPO, file)))
        .filter((c) => typeof c === "function")
        .map((C) => new C()),
    );
  return frozenShape(
    pkg.name,
    instances(pkg.n8n.nodes).map((n) => n.description),
    instances(pkg.n8n.credentials),
  );
}

if (require.main === module) {
  const list = fromDist();
  if (process.argv.includes("--write")) {
    const file = path.join(REPO, "CHANGELOG.md");
    const changelog = fs.readFileSync(file, "utf8");
    if (markedBlock(changelog) === undefined)
      throw new Error(`CHANGELOG.md has no ${START} … ${END} block`);
    fs.writeFileSync(
      file,
      changelog.replace(
        /<!-- frozen-shape:start -->[\s\S]*<!-- frozen-shape:end -->/,
        `${START}\n${list}\n${END}`,
      ),
    );
  } else {
    console.log(list);
  }
}

module.exports = { frozenShape, markedBlock };
