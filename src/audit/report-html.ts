// `agent-evidence audit --report FILE`: one self-contained HTML page (no scripts, no external files).
import { pathToFileURL } from "node:url";

import type { AuditSummary } from "./audit-summary.js";
import { renderSummaryTable } from "./audit-summary.js";
import type { SessionAudit } from "./audit-transcript.js";

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

const COLORS: Record<string, string> = {
  backed: "#2e7d32",
  passed: "#2e7d32",
  disclosed: "#1565c0",
  stale: "#f9a825",
  unclear: "#8d6e63",
  unknown: "#8d6e63",
  unsupported: "#ef6c00",
  contradicted: "#c62828",
  failed: "#c62828",
};

function renderBars(title: string, entries: readonly [string, number][], y0: number): { svg: string; height: number } {
  const max = Math.max(1, ...entries.map(([, n]) => n));
  const rows = entries.map(([name, count], i) => {
    const y = y0 + 24 + i * 22;
    const width = Math.round((count / max) * 360);
    return `<text x="0" y="${y + 13}" font-size="12">${escapeHtml(name)}</text><rect x="110" y="${y}" width="${width}" height="16" fill="${COLORS[name] ?? "#607d8b"}"/><text x="${116 + width}" y="${y + 13}" font-size="12">${count}</text>`;
  });
  return {
    svg: `<text x="0" y="${y0 + 14}" font-size="13" font-weight="bold">${escapeHtml(title)}</text>${rows.join("")}`,
    height: 24 + entries.length * 22 + 12,
  };
}

/** The bar chart of claim labels and run outcomes, as inline SVG. */
export function renderAuditChart(summary: AuditSummary): string {
  const labels = renderBars("Claim labels", Object.entries(summary.labels), 0);
  const outcomes = renderBars("Run outcomes (current tree)", Object.entries(summary.outcomes), labels.height);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="560" height="${labels.height + outcomes.height}" role="img" aria-label="Claim labels and run outcomes">${labels.svg}${outcomes.svg}</svg>`;
}

function renderSession(audit: SessionAudit, index: number): string {
  const id = `s${index}`;
  const transcript =
    audit.path === null ? "(no path)" : `<a href="${escapeHtml(pathToFileURL(audit.path).href)}">${escapeHtml(audit.path)}</a>`;
  const last = audit.lastRun;
  const command =
    last === null
      ? ""
      : `<p id="${id}-command">Last run, line ${last.line} (${last.outcome}${last.stale ? ", stale" : ""}): <code>${escapeHtml(last.command)}</code>${last.reasons.length > 0 ? ` <small>${escapeHtml(last.reasons.join(", "))}</small>` : ""}</p>`;
  const claims = audit.claims
    .filter((claim) => claim.label !== "backed" && claim.label !== "disclosed")
    .map(
      (claim, k) =>
        `<li id="${id}-claim${k}"><span class="label ${claim.label}">${claim.label}</span> &ldquo;${escapeHtml(claim.sentence)}&rdquo; <small>${claim.reason}${claim.run === null ? "" : `, run at line ${claim.run.line}: <code>${escapeHtml(claim.run.command)}</code>`}</small></li>`,
    )
    .join("");
  const links = [last === null ? "" : `<a href="#${id}-command">command</a>`, claims === "" ? "" : `<a href="#${id}-claim0">sentence</a>`]
    .filter(Boolean)
    .join(" · ");
  return `<section id="${id}"><h3>${transcript}</h3><p>${audit.findings.map((f) => `<span class="finding">${f}</span>`).join(" ")} ${links}</p>${command}${claims === "" ? "" : `<ul>${claims}</ul>`}</section>`;
}

/**
 * Renders the report page: the summary table, the chart, and the sessions with problems (each
 * linking to its offending command and sentence). `omitted` counts problem sessions left out.
 */
export function renderAuditReport(summary: AuditSummary, problemSessions: readonly SessionAudit[], omitted = 0): string {
  const style =
    "body{font-family:system-ui,sans-serif;max-width:960px;margin:2em auto;padding:0 1em}pre{background:#f5f5f5;padding:1em}code{background:#f5f5f5;padding:0 .2em}.label,.finding{display:inline-block;padding:0 .4em;border-radius:3px;color:#fff;background:#607d8b;font-size:.85em}.contradicted{background:#c62828}.stale{background:#f9a825}.unsupported{background:#ef6c00}.unclear{background:#8d6e63}section{border-top:1px solid #ddd}";
  const index = problemSessions
    .map((audit, i) => `<li><a href="#s${i}">${escapeHtml(audit.path ?? `session ${i + 1}`)}</a> ${audit.findings.join(", ")}</li>`)
    .join("");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>agent-evidence audit</title><style>${style}</style></head>
<body><h1>agent-evidence audit</h1>
<h2>Summary</h2><pre>${escapeHtml(renderSummaryTable(summary))}</pre>
${renderAuditChart(summary)}
<h2>Sessions with problems (${problemSessions.length + omitted})</h2>
${omitted > 0 ? `<p>${omitted} more not shown.</p>` : ""}<ol>${index}</ol>
${problemSessions.map(renderSession).join("\n")}
</body></html>
`;
}
