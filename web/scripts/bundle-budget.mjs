// The landing page's JavaScript budget, checked by `make test` against the production build:
// every script `/` loads (index.html's entry, the landing page alone, and its static imports — all
// preloaded with the HTML), gzipped, summed. Prints the figure; fails over the budget.
//
//   node scripts/bundle-budget.mjs [dist] [budget-kb]

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

const dist = process.argv[2] ?? "dist";
const budgetKb = Number(process.argv[3] ?? process.env.LANDING_JS_BUDGET_KB ?? 120);
const manifest = JSON.parse(readFileSync(join(dist, ".vite", "manifest.json"), "utf8"));

const seen = new Set();
function walk(key) {
  if (seen.has(key) || !manifest[key]) return;
  seen.add(key);
  for (const next of manifest[key].imports ?? []) walk(next);
}
if (!manifest["index.html"]) throw new Error("index.html is not in the build's manifest");
walk("index.html");

const files = [...seen].map((key) => manifest[key].file).filter((file) => file.endsWith(".js"));
const sizes = files.map((file) => ({ file, gzip: gzipSync(readFileSync(join(dist, file)), { level: 9 }).length }));
const total = sizes.reduce((sum, s) => sum + s.gzip, 0);
for (const s of sizes.sort((a, b) => b.gzip - a.gzip).slice(0, 5)) console.log(`  ${(s.gzip / 1024).toFixed(1).padStart(6)} KB  ${s.file}`);
console.log(`landing page JavaScript: ${(total / 1024).toFixed(1)} KB gzipped in ${files.length} files (budget ${budgetKb} KB)`);
if (total > budgetKb * 1024) {
  console.error(`over budget by ${((total - budgetKb * 1024) / 1024).toFixed(1)} KB`);
  process.exit(1);
}
