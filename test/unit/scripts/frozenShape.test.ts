/**
 * CHANGELOG.md lists what the first release freezes (node type names, versions, resources,
 * operations, parameter and collection names: what n8n stores in users' workflows) between its
 * `frozen-shape` markers. A parameter added, renamed or moved without that list following fails
 * here; `npm run build && node scripts/frozen-shape.js --write` rewrites the list.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

import { NexthinkApi } from "../../../credentials/NexthinkApi.credentials";
import { NexthinkConnectorApi } from "../../../credentials/NexthinkConnectorApi.credentials";
import { NexthinkActions } from "../../../nodes/Nexthink/actions/NexthinkActions.node";
import { NexthinkEnrichment } from "../../../nodes/Nexthink/enrichment/NexthinkEnrichment.node";
import { NexthinkEventTrigger } from "../../../nodes/Nexthink/eventTrigger/NexthinkEventTrigger.node";
import { NexthinkExport } from "../../../nodes/Nexthink/export/NexthinkExport.node";
import { NexthinkTrigger } from "../../../nodes/Nexthink/trigger/NexthinkTrigger.node";

const { frozenShape, markedBlock } = require("../../../scripts/frozen-shape");

const ROOT = join(__dirname, "../../..");

describe("CHANGELOG's frozen shape", () => {
  it("is the shape of the nodes and credentials as they are", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
    const nodes = [
      new NexthinkExport(),
      new NexthinkEnrichment(),
      new NexthinkActions(),
      new NexthinkTrigger(),
      new NexthinkEventTrigger(),
    ];
    const actual = frozenShape(
      pkg.name,
      nodes.map((node) => node.description),
      [new NexthinkApi(), new NexthinkConnectorApi()],
    );
    expect(markedBlock(readFileSync(join(ROOT, "CHANGELOG.md"), "utf8"))).toBe(
      actual,
    );
  });
});
