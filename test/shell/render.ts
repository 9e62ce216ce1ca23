// Renders a parsed line compactly, so structure tests read like the shell they describe.
import type { CommandNode, ParsedLine, Redirect, Statement } from "../../src/shell/types.js";

const word = (w: string): string => (w === "" || /[\s']/.test(w) ? `'${w}'` : w);
const redirect = (r: Redirect): string => `{${r.fd ?? ""}${r.op}${r.target}}`;

function node(n: CommandNode): string {
  const redirects = n.redirects.map(redirect);
  switch (n.type) {
    case "simple": {
      const parts = [...n.assignments.map((a) => `${a.name}=${word(a.value)}`), ...n.words.map(word), ...redirects];
      const nested = n.nested === undefined ? "" : ` <<${renderStatements(n.nested.statements)}>>`;
      return parts.join(" ") + nested;
    }
    case "subshell":
      return [`( ${renderStatements(n.body)} )`, ...redirects].join(" ");
    case "group":
      return [`{ ${renderStatements(n.body)} }`, ...redirects].join(" ");
    case "compound":
      return [`${n.kind}${n.name === undefined ? "" : `:${n.name}`}[ ${renderStatements(n.body)} ]`, ...redirects].join(" ");
  }
}

/** `a && b | c ; d &` style rendering of statements. */
export function renderStatements(statements: readonly Statement[]): string {
  return statements
    .map((s) => {
      const list = s.list.pipelines
        .map((p, i) => {
          const body = p.commands.map((c, j) => (j === 0 ? node(c) : `${p.operators[j - 1]} ${node(c)}`)).join(" ");
          const text = (p.negated ? "! " : "") + body;
          return i === 0 ? text : `${s.list.connectors[i - 1]} ${text}`;
        })
        .join(" ");
      return s.background ? `${list} &` : list;
    })
    .join(" ; ");
}

/** Renders a whole line, prefixing `OPAQUE(reasons)` when it is opaque. */
export function renderLine(parsed: ParsedLine): string {
  const body = renderStatements(parsed.statements);
  return parsed.opaque ? `OPAQUE(${parsed.opaqueReasons.join(",")})` : body;
}
